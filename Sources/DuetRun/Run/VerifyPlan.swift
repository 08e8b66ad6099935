import Foundation
import DuetHistory
import DuetModel
import DuetSandbox
import DuetSupport

/// What `duet verify` was asked to do, from its command line.
package struct VerifyOptions: Sendable {
  package var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
  package var failFast = false
  /// `--lane NAME|GLOB`: run only these (with their needs unless `noDeps`).
  package var lanes: [String] = []
  /// `--tag T`: run only the lanes carrying one of these tags (with `lanes`, the lanes of either).
  package var tags: [String] = []
  /// `--skip NAME|GLOB` and `DUET_SKIP`: lanes left out, reported as skipped by request.
  package var skip: [LaneSkip] = []
  package var noDeps = false
  /// Seconds; a lane's own `timeout` wins.
  package var defaultTimeout: Double = 30 * 60
  /// A lane whose `requires:` program is missing fails instead of being skipped.
  package var strict = false
  /// `--strict=flaky`: a lane whose newest pass at its fingerprint came only on a retry runs again.
  package var refusesFlaky = false
  /// `--failed-tests`: per lane, the test cases its last run failed, the only
  /// ones it runs (through `DUET_FAILED_TESTS`); its pass is never cached.
  package var failedTests: [String: FailedTestsOnly] = [:]
  /// Run every lane, even those whose inputs are unchanged since they last passed.
  package var noCache = false
  /// Lanes whose output is printed live.
  package var stream: Set<String> = []
  /// `--since`/`--changed`: the change to verify; lanes it does not touch are `unaffected`.
  package var changed: ChangedFiles.Result?
  /// `--sandbox`: every shell lane runs in the sandbox (issue 56).
  package var sandbox = false
  package init() {}
}

/// One lane name or glob to leave out of the run, and where it was asked for
/// (`--skip` or `DUET_SKIP`), for the record and for an error naming it.
package struct LaneSkip: Sendable, Equatable {
  var pattern: String
  var origin: String
  package init(_ pattern: String, origin: String) {
    self.pattern = pattern
    self.origin = origin
  }

  /// The reason on a lane's record: `by request: --skip`.
  var reason: String { "\(LaneVerdict.skippedByRequest): \(origin)" }
}

/// Everything decided before the first lane starts: the lanes selected, the
/// lanes settled without running (a missing program), the run id and log folder.
package struct VerifyPlan: Sendable {
  let root: URL
  package let manifest: Manifest
  /// The built-ins the manifest's `run:` lanes name (their own inputs join the fingerprints).
  let builtins: BuiltinSet
  package let options: VerifyOptions
  package let runID: String
  package let selected: Set<Int>
  package var preset: [Int: LaneVerdict]
  /// Expected seconds per lane for the critical-path priority (1 each without history).
  var weights: [Double]
  let environment: [String: String]
  /// Under `--since`/`--changed`: why each selected lane runs, or that it is unaffected.
  package let affected: [Int: AffectedLanes.Decision]
  /// What each lane's request is made of, worked out once, not once a lane
  /// (URL arithmetic was a fifth of the run loop's own time per lane: issue 42).
  private let shared: RequestParts
  /// bubblewrap (and strace) when a lane runs in the sandbox; nil when none does.
  let sandboxTools: SandboxTools?
  /// The run's sandbox scratch folders, when a lane runs in the sandbox.
  let sandboxScratch: SandboxScratch?

  /// `moduleInputs`: under `--since`, what each module a lane covers depends on (`AffectedLanes`).
  package init(root: URL, manifest: Manifest, builtins: BuiltinSet, options: VerifyOptions, environment: [String: String],
              now: Date = Date(), moduleInputs: [String: [String]] = [:]) throws(UsageError) {
    self.root = root
    self.manifest = manifest
    self.builtins = builtins
    self.options = options
    self.environment = environment
    self.runID = VerifyPlan.makeRunID(now)
    self.shared = RequestParts(root: root, manifest: manifest, environment: environment, logFolder: ".duet/logs/\(runID)")
    try VerifyPlan.check(root: root, manifest: manifest, options: options)
    sandboxTools = try SandboxPlan.tools(manifest: manifest, options: options, environment: environment)
    sandboxScratch = sandboxTools == nil ? nil : SandboxScratch(base: root.appendingPathComponent(".duet/sandbox/\(runID)"))
    selected = try VerifyPlan.select(manifest, options)
    weights = [Double](repeating: 1, count: manifest.lanes.count)
    var preset: [Int: LaneVerdict] = [:]
    if let changed = options.changed {
      // A change under a folder that an in-tree link makes an input reaches that input too.
      let implicit = { (lane: Lane) in InputFingerprint.implicitInputs(of: lane, root: root, builtins: builtins) }
      let patterns = selected.flatMap { manifest.lanes[$0].inputs + implicit(manifest.lanes[$0]) }
      let links = LinkedFolders.find(under: patterns.map(LinkedFolders.searchFolder), root: root)
      affected = AffectedLanes.decide(manifest: manifest, selected: selected, changed: LinkedFolders.expand(changed.files, links: links),
                                      implicitInputs: { InputFingerprint.implicitInputs(of: $0, root: root, builtins: builtins) },
                                      moduleInputs: moduleInputs)
      for (index, decision) in affected where decision == .unaffected {
        preset[index] = LaneVerdict(index: index, name: manifest.lanes[index].name, outcome: .unaffected,
                                   reason: "no changed file matches its inputs or covers")
      }
    } else {
      affected = [:]
    }
    for (index, skip) in try VerifyPlan.skipped(manifest, options) where selected.contains(index) {
      preset[index] = LaneVerdict(index: index, name: manifest.lanes[index].name, outcome: .skipped, reason: skip.reason)
    }
    for index in selected where preset[index] == nil {
      preset[index] = VerifyPlan.settledBeforeRun(index, manifest.lanes[index], root: root, environment: environment, strict: options.strict)
    }
    self.preset = preset
  }

  /// What makes a run impossible before any lane is looked at: a refused
  /// `.duet` folder, a timeout out of range, a manifest without lanes.
  private static func check(root: URL, manifest: Manifest, options: VerifyOptions) throws(UsageError) {
    // Issue 16: the one path guard; `.duet` through a link would put the store,
    // the logs and log retention in another folder.
    do { try PathGuard.checkStateFolder(root: root) } catch { throw usage("\(error)") }
    if options.defaultTimeout > Lane.maxTimeout { throw usage("--timeout must be at most 7d") }
    guard !manifest.lanes.isEmpty else {
      throw usage("\(manifest.path) declares no lanes, so there is nothing to verify; add a lane, or run 'duet init' to write lanes for this tree")
    }
  }

  /// The lanes `--lane` (names or globs) and `--tag` name (with their needs
  /// unless `--no-deps`), or every lane; a name, glob or tag that names no lane,
  /// in `--lane`, `--tag` or `--stream`, is an error.
  private static func select(_ manifest: Manifest, _ options: VerifyOptions) throws(UsageError) -> Set<Int> {
    let names = manifest.lanes.map(\.name)
    var chosen = Set<Int>()
    for pattern in options.lanes {
      let found = LaneSelector.matches(pattern, in: names)
      guard !found.isEmpty else { throw noMatch("--lane", pattern, manifest) }
      chosen.formUnion(found)
    }
    for tag in options.tags {
      let found = LaneSelector.tagged(tag, in: manifest.lanes)
      guard !found.isEmpty else {
        let tags = LaneSelector.allTags(manifest.lanes)
        let known = tags.isEmpty ? "its lanes carry no tags" : "its tags: \(tags.joined(separator: ", "))"
        throw usage("--tag \(tag): no lane of \(manifest.path) carries it (\(known))\(Suggestion.hint(for: tag, in: tags))")
      }
      chosen.formUnion(found)
    }
    for name in options.stream where !names.contains(name) {
      throw noMatch("--stream", name, manifest, glob: false)
    }
    if options.lanes.isEmpty && options.tags.isEmpty { return Set(0..<manifest.lanes.count) }
    return options.noDeps ? chosen : manifest.graph.closure(of: chosen)
  }

  /// The lanes `--skip` and `DUET_SKIP` leave out, each with the request that
  /// names it (the first); one that names no lane is an error.
  private static func skipped(_ manifest: Manifest, _ options: VerifyOptions) throws(UsageError) -> [Int: LaneSkip] {
    let names = manifest.lanes.map(\.name)
    var skipped: [Int: LaneSkip] = [:]
    for skip in options.skip {
      let found = LaneSelector.matches(skip.pattern, in: names)
      guard !found.isEmpty else { throw noMatch(skip.origin, skip.pattern, manifest) }
      for index in found where skipped[index] == nil { skipped[index] = skip }
    }
    return skipped
  }

  /// A selection or option that does not fit the tree: a usage error of `duet verify`
  /// (a hook's run is verify's too), exit 2.
  private static func usage(_ message: String) -> UsageError { UsageError(message: message, command: "verify") }

  /// `--lane: no lane matches 'kotln-*' in lanes/manifest.yaml; did you mean …? (its lanes: …)`,
  /// in the one wording of an unknown lane (`LaneSelector.unknown`).
  private static func noMatch(_ origin: String, _ pattern: String, _ manifest: Manifest, glob: Bool = true) -> UsageError {
    usage(LaneSelector.unknown(pattern, origin: origin, glob: glob, manifestPath: manifest.path, names: manifest.lanes.map(\.name)))
  }

  /// The record of a lane that ends before the run starts: a refused `dir`
  /// (fail), another platform's lane (skipped), a missing `requires:` program
  /// or the Android SDK (`requires: [android-sdk]`) missing (skipped, or failed
  /// under `--strict`); nil for a lane that may run. `environment` is the
  /// request's, as the lane would get it.
  private static func settledBeforeRun(_ index: Int, _ lane: Lane, root: URL, environment: [String: String], strict: Bool) -> LaneVerdict? {
    if let dir = lane.dir, let problem = PathGuard.laneFolderProblem(dir, in: root) {
      // Issue 16: the path guard, for shell lanes and built-ins alike.
      return LaneVerdict(index: index, name: lane.name, outcome: .fail, reason: problem)
    }
    // `platforms:` (Manifest/LanePlatform.swift): a lane for another OS is skipped, --strict or not.
    if let reason = lane.platformSkipReason() {
      return LaneVerdict(index: index, name: lane.name, outcome: .skipped, reason: reason)
    }
    let folder = lane.dir.map { root.appendingPathComponent($0) } ?? root
    let path = environment[.path] ?? "/usr/bin:/bin"
    let missing = lane.requires.filter { $0 != AndroidSDK.requirement && !VerifyPlan.isOnPath($0, path: path, in: folder) }
    let sdk = lane.requires.contains(AndroidSDK.requirement)
      ? AndroidSDK.missing(laneDir: lane.dir, root: root, environment: environment) : nil
    guard !missing.isEmpty || sdk != nil else { return nil }
    let reason = ((missing.isEmpty ? [] : ["needs \(missing.joined(separator: ", ")), not found"]) + (sdk.map { [$0] } ?? []))
      .joined(separator: "; ")
    return LaneVerdict(index: index, name: lane.name, outcome: strict ? .fail : .skipped,
                      reason: strict ? reason + " (--strict)" : reason,
                      missingPrograms: missing + (sdk == nil ? [] : ["the Android SDK"]))
  }

  /// `.duet/logs/<run-id>`, relative to the root.
  var logFolder: String { ".duet/logs/\(runID)" }

  /// Under `--since`/`--changed`: the file naming the changed files, one a line,
  /// that lanes find through `DUET_CHANGED_FILES`.
  var changedFilesPath: String? { options.changed == nil ? nil : "\(logFolder)/changed-files.txt" }

  /// Makes `.duet/` with a `.gitignore` of `*`, so duet's own files never dirty the tree.
  package func prepareStateFolder() throws {
    let folder = root.appendingPathComponent(".duet")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("logs"), withIntermediateDirectories: true)
    let ignore = folder.appendingPathComponent(".gitignore")
    if !FileManager.default.fileExists(atPath: ignore.path) {
      try AtomicFile.write(Data("*\n".utf8), toAbsolute: ignore.path, displayPath: ".duet/.gitignore")
    }
    if let changed = options.changed, let path = changedFilesPath {
      let file = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try AtomicFile.write(Data(changed.files.map { $0 + "\n" }.joined().utf8), toAbsolute: file.path, displayPath: path)
    }
  }

  /// The request for one attempt of one lane.
  /// `quarantinedTests` is the file naming the lane's quarantined tests, one
  /// `classname.name` pattern a line, that lanes find through `DUET_QUARANTINED_TESTS`.
  func request(index: Int, attempt: Int, quarantinedTests: String? = nil, failedTests: String? = nil, onLine: (@Sendable (String) -> Void)? = nil) -> StepRequest {
    let lane = manifest.lanes[index]
    let file = attempt == 1 ? "\(lane.name).log" : "\(lane.name).attempt-\(attempt).log"
    let logPath = "\(logFolder)/\(file)"
    var environment = shared.environment
    for entry in lane.env { environment[entry.name] = entry.value }
    environment[.lane] = lane.name
    environment[.root] = shared.rootPath
    environment[.attempt] = String(attempt)
    if let changedFilesPath { environment[.changedFiles] = root.appendingPathComponent(changedFilesPath).path }
    if let quarantinedTests { environment[.quarantinedTests] = quarantinedTests }
    if let failedTests { environment[.failedTests] = failedTests }
    var request = StepRequest(
      index: index, lane: lane, attempt: attempt,
      timeout: lane.timeout ?? options.defaultTimeout,
      workingDirectory: shared.directories[index],
      logFolder: shared.logFolder, logFile: file, logPath: logPath,
      environment: environment,
      onLine: options.stream.contains(lane.name) ? onLine : nil)
    request.sandbox = sandboxedStep(for: request)
    return request
  }

  /// The variables duet sets for lanes; never inherited from duet's own environment.
  static let laneVariables = EnvironmentVariable.givenToLanes.map(\.rawValue)

  /// duet's own settings that no lane sees (DESIGN §14): the history store's
  /// path, so a lane cannot write a verdict for another lane into the store a CI
  /// job hands on (issue 52), and the remote cache, its token and its HMAC key,
  /// secrets that stay with duet (issue 51). A lane's own `env:` may still set them.
  static let withheldVariables = EnvironmentVariable.withheldFromLanes.map(\.rawValue)

  /// `.duet/logs/<run-id>/<lane>.quarantined-tests`, relative to the root: the
  /// lane's quarantined tests, for it to hand its runner as exclusions.
  func quarantinedTestsPath(lane: String) -> String { "\(logFolder)/\(lane).quarantined-tests" }
  /// Where `--failed-tests` writes the lane's failed tests (`DUET_FAILED_TESTS`).
  func failedTestsPath(lane: String) -> String { "\(logFolder)/\(lane).failed-tests" }

  /// The parts of a lane's request that are the same for every attempt.
  private struct RequestParts: Sendable {
    let rootPath: String
    /// The run's log folder, absolute.
    let logFolder: URL
    /// Each lane's working directory: its `dir:` under the root, or the root.
    let directories: [URL]
    /// duet's environment without the variables duet sets for lanes (a
    /// DUET_CHANGED_FILES inherited from the caller would narrow a full run to
    /// someone else's list) and those it withholds from them.
    let environment: [String: String]

    init(root: URL, manifest: Manifest, environment: [String: String], logFolder: String) {
      rootPath = root.path
      self.logFolder = root.appendingPathComponent(logFolder)
      directories = manifest.lanes.map { lane in lane.dir.map { root.appendingPathComponent($0) } ?? root }
      var environment = environment
      for name in VerifyPlan.laneVariables + VerifyPlan.withheldVariables { environment[name] = nil }
      self.environment = environment
    }
  }

  /// The lanes in the order they would start, for `--dry-run`.
  package var startOrder: [Int] {
    manifest.graph.runOrder(weights: weights).filter { selected.contains($0) }
  }

  /// Sortable and readable: `20261202-181700-3f2a1b`. The suffix leads with the
  /// millisecond (its low 14 bits are random), so runs started within one second
  /// still sort in start order: log retention keeps the newest folders by name.
  static func makeRunID(_ now: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    // Both parts from the whole second: the formatter would round 0.9995s up to the next one.
    let second = now.timeIntervalSince1970.rounded(.down)
    let millisecond = min(999, UInt32(((now.timeIntervalSince1970 - second) * 1000).rounded(.down)))
    let suffix = String(millisecond << 14 | UInt32.random(in: 0..<(1 << 14)), radix: 16)
    return formatter.string(from: Date(timeIntervalSince1970: second)) + "-" + String(repeating: "0", count: 6 - suffix.count) + suffix
  }

  /// Whether `program` is an executable on `path` (or is itself a path to one,
  /// relative to `folder`, the lane's folder, never duet's working folder).
  static func isOnPath(_ program: String, path: String, in folder: URL? = nil) -> Bool {
    if program.contains("/") {
      let full = program.hasPrefix("/") || folder == nil ? program : folder!.appendingPathComponent(program).path
      return access(full, X_OK) == 0
    }
    return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
  }
}
