import Foundation
import DuetCache
import DuetModel
import DuetProcess
import DuetSupport
import DuetHistory

/// The input fingerprint of a lane: SHA-256 over its definition (command, env,
/// `dir`, duet's version for a built-in), its needs' fingerprints, and the
/// contents of the files its `inputs` (and a built-in's implicit inputs) match,
/// in sorted path order.
///
/// A lane without inputs falls back to its definition plus the git commit and
/// uncommitted changes; without git it has no fingerprint. Either way it is
/// never cached: nothing says which files its result depends on.
package enum InputFingerprint {
  package struct Result: Sendable {
    package var fingerprints: [Int: String]
    /// What each fingerprint was made from, so a later run can say what changed.
    package var parts: [Int: FingerprintParts]
    /// Lanes whose fingerprint covers their inputs, so an equal one may be served from cache.
    var cacheable: Set<Int>
    /// Lanes that declare inputs matching no file (never cached: a typo or a
    /// folder given where a glob was meant), with their patterns.
    var unmatched: [Int: [String]] = [:]
    /// Lanes whose inputs reach a file duet cannot put in the key (unreadable),
    /// with why: never cached, since an edit there would go unseen.
    var unkeyable: [Int: String] = [:]
  }

  /// `linux-x86_64`, `macos-arm64`: where this duet runs.
  static let platform: String = {
    var info = utsname()
    uname(&info)
    let machine = withUnsafeBytes(of: &info.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(LanePlatform.current.rawValue)-\(machine)"
  }()

  /// `changedFiles` is the list `--since`/`--changed` hands lanes: a lane that
  /// reads it (its command names `DUET_CHANGED_FILES`, or it lists that name in
  /// `env-inputs:`) checks only part of the tree, so its pass must not serve a
  /// full run, nor a full run's pass serve it.
  /// `git` is asked only when a lane without inputs needs it: reading the
  /// uncommitted changes hashes every untracked file of the tree.
  /// `quarantined` is each lane's quarantined tests in date, which a lane with
  /// `reports:` sees through `DUET_QUARANTINED_TESTS`: a pass made with tests
  /// handed to the runner as exclusions must not serve a run without them.
  /// `programMemo` is where the digests of large `requires:` programs are kept
  /// between runs (`.duet/program-digests`; read, and written unless
  /// `rememberPrograms` is false, as under `--dry-run`); nil keeps them for this call only.
  static func compute(manifest: Manifest, builtins: BuiltinSet, root: URL, selected: Set<Int>, git: GitStateOnce, duetVersion: String,
                             changedFiles: [String]? = nil, quarantined: [String: [String]] = [:], defaultTimeout: Double? = nil,
                             environment: [String: String], programMemo: URL? = nil, rememberPrograms: Bool = true) -> Result {
    let changedList = changedFiles.map { "sha256:" + Digest.sha256($0.map { $0 + "\n" }.joined()) }
    var unmatched: [Int: [String]] = [:]
    var unkeyable: [Int: String] = [:]
    var programIdentity: [String: String] = [:]
    var digests = FileDigestMemo(file: programMemo, remember: rememberPrograms)
    defer { digests.save() }
    var fingerprints: [Int: String] = [:]
    var allParts: [Int: FingerprintParts] = [:]
    var cacheable = Set<Int>()
    let graph = manifest.graph
    let needed = graph.closure(of: selected)
    for index in graph.topologicalOrder() where needed.contains(index) {
      let lane = manifest.lanes[index]
      var parts = ownParts(of: lane, root: root, duetVersion: duetVersion, changedList: changedList,
                           environment: environment, programIdentity: &programIdentity, digests: &digests)
      // What the lane sees and is held to: its name (DUET_LANE) and its timeout.
      parts.lane = lane.name
      parts.timeout = (lane.timeout ?? defaultTimeout).map { String(format: "%.3f", $0) }
      if !lane.reports.isEmpty, let tests = quarantined[lane.name], !tests.isEmpty {
        parts.envInputs[EnvironmentVariable.quarantinedTests.rawValue] = "sha256:" + Digest.sha256(tests.map { $0 + "\n" }.joined())
      }
      // A need without a fingerprint (it has none to give) leaves this lane without one too.
      let needs = graph.needs[index].map { (graph.names[$0], fingerprints[$0]) }
      guard needs.allSatisfy({ $0.1 != nil }) else { continue }
      for (name, fingerprint) in needs { parts.needs[name] = fingerprint }

      let matched = inputFiles(of: lane, root: root, builtins: builtins)
      if !matched.files.isEmpty {
        parts.files = matched.files
        if let problem = matched.problems.first {
          unkeyable[index] = problem + (matched.problems.count > 1 ? " and \(matched.problems.count - 1) more" : "")
        } else {
          cacheable.insert(index)
        }
      } else if let git = git.value {
        if !lane.inputs.isEmpty { unmatched[index] = lane.inputs }
        parts.git = "\(git.commit) \(git.changes)"
      } else {
        if !lane.inputs.isEmpty { unmatched[index] = lane.inputs }
        continue
      }
      fingerprints[index] = parts.fingerprint
      allParts[index] = parts
    }
    return Result(fingerprints: fingerprints, parts: allParts, cacheable: cacheable, unmatched: unmatched, unkeyable: unkeyable)
  }

  /// What a lane's fingerprint holds of the lane itself and this machine: its
  /// command, folder and env, duet's identity for a built-in, the platform, the
  /// changed-file list it reads, its programs and its `env-inputs`.
  private static func ownParts(of lane: Lane, root: URL, duetVersion: String, changedList: String?,
                               environment: [String: String], programIdentity: inout [String: String],
                               digests: inout FileDigestMemo) -> FingerprintParts {
    var parts = FingerprintParts(
      command: Digest.sha256(lane.commandText),
      dir: lane.dir ?? ".",
      env: Digest.sha256(lane.env.sorted(by: { $0.name < $1.name }).map { "\($0.name)=\($0.value)\n" }.joined()),
      duet: lane.isBuiltin ? duetVersion : nil)
    parts.platform = platform
    if lane.readsChangedFiles { parts.changedList = changedList }
    let laneFolder = lane.dir.map { root.appendingPathComponent($0) } ?? root
    for program in lane.requires {
      if program == AndroidSDK.requirement {
        // Which SDK the lane builds with, by its packages' versions, never by where it is.
        parts.programs[program] = AndroidSDK.identity(laneDir: lane.dir, root: root, environment: environment)
        continue
      }
      // A relative path names a program in the lane's folder, not duet's working folder.
      let key = program.contains("/") ? laneFolder.appendingPathComponent(program).standardizedFileURL.path : program
      if programIdentity[key] == nil { programIdentity[key] = identity(of: key, path: environment[.path] ?? "/usr/bin:/bin", digests: &digests) }
      parts.programs[program] = programIdentity[key]
    }
    for name in lane.envInputs where !VerifyPlan.laneVariables.contains(name) {
      // duet's own secrets never reach a lane (`withheldVariables`), so the
      // lane sees none of their values: nor does its key, or the history that
      // keeps the key's parts (a hash of a weak token could be guessed).
      if VerifyPlan.withheldVariables.contains(name) && lane.env.allSatisfy({ $0.name != name }) {
        parts.envInputs[name] = "withheld from lanes"
        continue
      }
      parts.envInputs[name] = environment[name].map { EnvInputDigest.part(name: name, value: $0, environment: environment) } ?? "unset"
    }
    return parts
  }

  /// The files a lane's inputs (and a built-in's own inputs) reach, as its key
  /// holds them: taken before the lane runs, and again after it passes.
  static func inputFiles(of lane: Lane, root: URL, builtins: BuiltinSet) -> InputFiles {
    let patterns = lane.inputs + implicitInputs(of: lane, root: root, builtins: builtins)
    return patterns.isEmpty ? InputFiles() : InputFiles.collect(patterns, root: root)
  }

  /// Programs larger than this have their digest kept between runs (`FileDigestMemo`).
  static let hashedProgramLimit = 1 << 20

  /// The name of the memo of large programs' digests under `.duet/`.
  static let programMemoName = "program-digests"

  /// What identifies the file `program` names on `path` (links followed), or
  /// `missing`: the SHA-256 of its bytes. A large binary (a compiler driver of
  /// tens of MB, whose hash would cost every verify a good part of a second)
  /// is hashed once and known by its stamp after that, device, inode, size,
  /// modification and change time: a same-size swap that keeps the time is seen.
  static func identity(of program: String, path: String, digests: inout FileDigestMemo) -> String {
    let candidates = program.contains("/") ? [program] : path.split(separator: ":").map { "\($0)/\(program)" }
    for candidate in candidates where access(candidate, X_OK) == 0 {
      let resolved = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
      var info = stat()
      guard lstat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      let hash = info.st_size > hashedProgramLimit ? digests.digest(ofAbsolute: resolved) : try? Digest.sha256(fileAt: resolved)
      if let hash { return "sha256:" + hash }
    }
    return "missing"
  }

  /// A built-in's own inputs, as globs relative to the tree root.
  static func implicitInputs(of lane: Lane, root: URL, builtins: BuiltinSet) -> [String] {
    guard case .builtin(let command, let arguments) = lane.step, let builtin = builtins.lane(named: command) else { return [] }
    let tree = lane.dir.map { root.appendingPathComponent($0) } ?? root
    // A built-in's inputs are read from the tree alone, and nothing is started: no environment is handed on.
    return builtin.implicitInputs(BuiltinContext(tree: tree, arguments: arguments, vocabulary: builtins.vocabulary, environment: [:])).map { pattern in lane.dir.map { "\($0)/\(pattern)" } ?? pattern }
  }
}

extension Lane {
  /// Whether the lane's result depends on the change list of `--since`.
  var readsChangedFiles: Bool {
    commandText.contains(EnvironmentVariable.changedFiles.rawValue) || envInputs.contains(EnvironmentVariable.changedFiles.rawValue)
  }
}
