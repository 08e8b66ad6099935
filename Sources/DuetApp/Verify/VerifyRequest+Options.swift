import DuetModel
import DuetRun
import Foundation

/// The command line's options as plain fields of the request, so the
/// executable fills a request without knowing the run's types.
extension VerifyRequest {
  /// `--jobs N`.
  package var jobs: Int {
    get { options.jobs }
    set { options.jobs = newValue }
  }
  /// `--timeout DURATION`, in seconds.
  package var defaultTimeout: Double {
    get { options.defaultTimeout }
    set { options.defaultTimeout = newValue }
  }
  /// `--lane NAME` (names or globs) and `--tag TAG`.
  package var lanes: [String] {
    get { options.lanes }
    set { options.lanes = newValue }
  }
  package var tags: [String] {
    get { options.tags }
    set { options.tags = newValue }
  }
  package var noDeps: Bool {
    get { options.noDeps }
    set { options.noDeps = newValue }
  }
  package var failFast: Bool {
    get { options.failFast }
    set { options.failFast = newValue }
  }
  package var strict: Bool {
    get { options.strict }
    set { options.strict = newValue }
  }
  package var noCache: Bool {
    get { options.noCache }
    set { options.noCache = newValue }
  }
  /// `--stream LANE`: lanes whose output is printed live.
  package var stream: Set<String> {
    get { options.stream }
    set { options.stream = newValue }
  }

  /// `--skip LANE`: left out as skipped by request, before those `DUET_SKIP` names.
  package mutating func skip(_ patterns: [String]) {
    options.skip = patterns.map { LaneSkip($0, origin: "--skip") } + VerifyRequest.skipVariable(environment)
  }

  /// `--since REF` or (`upstream`) `--changed`; neither runs every lane.
  package mutating func changes(since ref: String?, upstream: Bool) {
    changeBase = ref.map { .since($0) } ?? (upstream ? .upstream : nil)
  }
}
