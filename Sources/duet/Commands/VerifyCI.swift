import DuetKit
import Foundation

/// The CI side of `duet verify`: `--shard I/N`, `--junit FILE`, GitHub Actions
/// annotations and step summary, and `--strict`'s check that no lane changed a
/// tracked file. Verify.swift calls these; the text comes from DuetKit.
enum VerifyCI {
  /// What the run must do for CI, read from the command line and environment.
  struct Context {
    var junitPath: String?
    var github = false
    var summaryPath: String?
    var before: TrackedChanges?
    var started = Date()
  }

  static func context(_ arguments: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Context {
    var context = Context()
    if let junit = arguments.value("--junit") {
      guard !junit.isEmpty else { throw UsageError(message: "--junit needs a file path", command: "verify") }
      context.junitPath = URL(fileURLWithPath: junit, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).path
    }
    context.github = environment["GITHUB_ACTIONS"] == "true"
    if context.github, let summary = environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty { context.summaryPath = summary }
    return context
  }

  /// `--shard I/N`: the lanes of shard I, chosen from every lane by recorded
  /// durations; nil without `--shard`. Throws a usage error for a bad spec or a
  /// combination that cannot be honoured.
  static func shardLanes(_ arguments: ParsedArguments, manifest: Manifest, historyPath: String?, console: Console, quiet: Bool) throws -> [String]? {
    guard let text = arguments.value("--shard") else { return nil }
    guard let spec = Sharding.Spec.parse(text) else {
      throw UsageError(message: "--shard needs I/N with 1 <= I <= N, such as 2/3, got '\(text)'", command: "verify")
    }
    if !arguments.all("--lane").isEmpty { throw UsageError(message: "--shard and --lane cannot be combined", command: "verify") }
    if arguments.flag("--failed") { throw UsageError(message: "--shard and --failed cannot be combined", command: "verify") }
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

  /// Writes the JUnit file and the step summary; returns false when the JUnit
  /// file could not be written (the run then fails).
  static func writeReports(_ result: RunResult, changedFiles: [String], context: Context, console: Console) -> Bool {
    var ok = true
    if let path = context.junitPath {
      let formatter = ISO8601DateFormatter()
      let xml = JUnitReport.xml(result, timestamp: formatter.string(from: context.started), changedFiles: changedFiles)
      do {
        try AtomicFile.write(Data(xml.utf8), toAbsolute: path)
      } catch {
        console.err("duet verify: error: --junit: \(error)")
        ok = false
      }
    }
    if let path = context.summaryPath {
      let existing = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
      let markdown = StepSummary.markdown(result, changedFiles: changedFiles, limit: max(0, StepSummary.defaultLimit - existing))
      if !markdown.isEmpty && !append(Data(markdown.utf8), to: path) {
        console.err("duet verify: warning: cannot append the summary to $GITHUB_STEP_SUMMARY (\(path))")
      }
    }
    return ok
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
