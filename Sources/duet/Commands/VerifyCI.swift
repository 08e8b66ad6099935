import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// The CI side of `duet verify`: `--shard I/N`, `--junit FILE`, GitHub Actions
/// annotations and step summary, and `--strict`'s check that no lane changed a
/// tracked file. Verify.swift calls these; the text comes from DuetRun.
enum VerifyCI {
  /// What the run must do for CI, read from the command line and environment.
  struct Context {
    var junitPath: String?
    var github = false
    var summaryPath: String?
    var before: TrackedChanges?
    var started = Date()
  }

  static func context(_ arguments: ParsedArguments, environment: [String: String]) throws -> Context {
    var context = Context()
    if let junit = arguments.value("--junit") {
      guard !junit.isEmpty else { throw UsageError(message: "--junit needs a file path", command: "verify") }
      context.junitPath = URL(fileURLWithPath: junit, relativeTo: arguments.invocation.workingDirectory).path
    }
    context.github = environment["GITHUB_ACTIONS"] == "true"
    if context.github, let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty { context.summaryPath = summary }
    return context
  }

  /// `--shard I/N` read from the command line; nil without it. A usage error for a bad spec.
  static func shardSpec(_ arguments: ParsedArguments) throws -> Sharding.Spec? {
    guard let text = arguments.value("--shard") else { return nil }
    guard let spec = Sharding.Spec.parse(text) else {
      throw UsageError(message: "--shard needs I/N with 1 <= I <= N, such as 2/3, got '\(text)'", command: "verify")
    }
    return spec
  }

  /// The lanes of shard I of N, chosen from every lane by recorded durations.
  static func shardLanes(_ spec: Sharding.Spec, manifest: Manifest, historyPath: String?, console: Console, quiet: Bool) -> [String] {
    let text = "\(spec.index)/\(spec.count)"
    let names = manifest.lanes.map(\.name)
    var durations: [String: Double] = [:]
    if let historyPath, FileManager.default.fileExists(atPath: historyPath) {
      do {
        durations = try HistoryStore(path: historyPath).lastDurations(lanes: names)
      } catch {
        console.err("duet verify: warning: --shard: cannot read the history (\(error)); every lane weighs 1")
      }
    }
    let weights = names.map { durations[$0] ?? 1 }
    let mine = Sharding.lanes(of: spec, names: names, weights: weights)
    let load = Sharding.loads([mine], weights: weights)[0]
    let total = weights.reduce(0, +)
    let basis = durations.isEmpty ? "no recorded durations, every lane weighs 1" : "by recorded durations, expected \(DurationText.format(load)) of \(DurationText.format(total))"
    let line = mine.isEmpty
      ? "duet verify --shard \(text): no lane falls in this shard (\(names.count) lane(s) over \(spec.count) shards)"
      : "duet verify --shard \(text): \(mine.count) of \(names.count) lane(s) (\(basis)): \(listed(mine.map { names[$0] }))"
    if quiet { console.err(line) } else { console.out(line) }
    return mine.map { names[$0] }
  }

  /// At most 20 names, then how many more.
  static func listed(_ names: [String]) -> String {
    let shown = names.prefix(20).joined(separator: ", ")
    return names.count > 20 ? shown + " and \(names.count - 20) more" : shown
  }

  /// The tracked files the run changed, under `--strict` (empty otherwise).
  static func changedFiles(_ context: Context, root: URL) -> [String] {
    guard let before = context.before, let after = TrackedChanges.snapshot(root: root) else { return [] }
    return TrackedChanges.changed(before: before, after: after)
  }

  /// Writes the JUnit file and the step summary; returns the reports that could
  /// not be written (a missing JUnit file fails the run; the summary only warns).
  static func writeReports(_ outcome: VerifyOutcome, context: Context, console: Console) -> [String] {
    var errors: [String] = []
    if let path = context.junitPath {
      let formatter = ISO8601DateFormatter()
      let xml = JUnitReport.xml(outcome, timestamp: formatter.string(from: context.started))
      do {
        try AtomicFile.write(Data(xml.utf8), toAbsolute: path)
      } catch {
        console.err("duet verify: error: --junit: \(error)")
        errors.append("--junit: cannot write \(path)")
      }
    }
    if let path = context.summaryPath {
      let existing = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
      var reported = outcome
      reported.reportErrors += errors
      let markdown = StepSummary.markdown(reported, limit: max(0, StepSummary.defaultLimit - existing))
      if !markdown.isEmpty && !append(Data(markdown.utf8), to: path) {
        console.err("duet verify: warning: cannot append the summary to $GITHUB_STEP_SUMMARY (\(path))")
      }
    }
    return errors
  }

  static func append(_ data: Data, to path: String) -> Bool {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return data.withUnsafeBytes { bytes -> Bool in
      var offset = 0
      while offset < bytes.count {
        guard let base = bytes.baseAddress else { return false }
        let n = write(fd, base + offset, bytes.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return false
        }
        offset += n
      }
      return true
    }
  }
}
