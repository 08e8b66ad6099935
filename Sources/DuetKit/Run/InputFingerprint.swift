import Foundation

/// The input fingerprint of a lane: SHA-256 over its definition (command, env,
/// `dir`, duet's version for a built-in), its needs' fingerprints, and the
/// contents of the files its `inputs` (and a built-in's implicit inputs) match,
/// in sorted path order.
///
/// A lane without inputs falls back to its definition plus the git commit and
/// uncommitted changes; without git it has no fingerprint. Either way it is
/// never cached: nothing says which files its result depends on.
public enum InputFingerprint {
  public struct Result: Sendable {
    public var fingerprints: [Int: String]
    /// What each fingerprint was made from, so a later run can say what changed.
    public var parts: [Int: FingerprintParts]
    /// Lanes whose fingerprint covers their inputs, so an equal one may be served from cache.
    public var cacheable: Set<Int>
  }

  /// `linux-x86_64`, `macos-arm64`: where this duet runs.
  public static var platform: String {
    var info = utsname()
    uname(&info)
    let machine = withUnsafeBytes(of: &info.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    return "\(LanePlatform.current.rawValue)-\(machine)"
  }

  public static func compute(manifest: Manifest, root: URL, selected: Set<Int>, git: GitState?, duetVersion: String,
                             environment: [String: String] = ProcessInfo.processInfo.environment) -> Result {
    let platform = self.platform
    var programIdentity: [String: String] = [:]
    var fingerprints: [Int: String] = [:]
    var allParts: [Int: FingerprintParts] = [:]
    var cacheable = Set<Int>()
    let graph = manifest.graph
    let needed = graph.closure(of: selected)
    for index in graph.topologicalOrder() where needed.contains(index) {
      let lane = manifest.lanes[index]
      var parts = FingerprintParts(
        command: Digest.sha256(lane.commandText),
        dir: lane.dir ?? ".",
        env: Digest.sha256(lane.env.sorted(by: { $0.name < $1.name }).map { "\($0.name)=\($0.value)\n" }.joined()),
        duet: lane.isBuiltin ? duetVersion : nil)
      parts.platform = platform
      for program in lane.requires {
        if programIdentity[program] == nil { programIdentity[program] = identity(of: program, path: environment["PATH"] ?? "/usr/bin:/bin") }
        parts.programs[program] = programIdentity[program]
      }
      for name in lane.envInputs {
        parts.envInputs[name] = environment[name].map { "sha256:" + Digest.sha256($0) } ?? "unset"
      }
      var needsKnown = true
      for need in graph.needs[index] {
        guard let fingerprint = fingerprints[need] else {
          needsKnown = false
          break
        }
        parts.needs[graph.names[need]] = fingerprint
      }
      guard needsKnown else { continue }

      let patterns = lane.inputs + implicitInputs(of: lane, root: root)
      if !patterns.isEmpty {
        for path in files(matching: patterns, root: root) {
          parts.files.append((try? Digest.sha256(fileAt: root.appendingPathComponent(path).path)).map { FingerprintParts.File(path: path, sha256: $0) }
            ?? FingerprintParts.File(path: path, sha256: "unreadable"))
        }
        cacheable.insert(index)
      } else if let git {
        parts.git = "\(git.commit) \(git.changes)"
      } else {
        continue
      }
      fingerprints[index] = parts.fingerprint
      allParts[index] = parts
    }
    return Result(fingerprints: fingerprints, parts: allParts, cacheable: cacheable)
  }

  /// The SHA-256 of the file `program` names on `path` (links followed), or `missing`.
  static func identity(of program: String, path: String) -> String {
    let candidates = program.contains("/") ? [program] : path.split(separator: ":").map { "\($0)/\(program)" }
    for candidate in candidates where access(candidate, X_OK) == 0 {
      let resolved = URL(fileURLWithPath: candidate).resolvingSymlinksInPath().path
      if let hash = try? Digest.sha256(fileAt: resolved) { return "sha256:" + hash }
    }
    return "missing"
  }

  /// A built-in's own inputs, as globs relative to the tree root.
  static func implicitInputs(of lane: Lane, root: URL) -> [String] {
    guard case .builtin(let command, _) = lane.step, let builtin = BuiltinRegistry.lane(named: command) else { return [] }
    let tree = lane.dir.map { root.appendingPathComponent($0) } ?? root
    return builtin.implicitInputs(tree).map { pattern in lane.dir.map { "\($0)/\(pattern)" } ?? pattern }
  }

  /// Every file the patterns match, each once, sorted by path bytes.
  static func files(matching patterns: [String], root: URL) -> [String] {
    var all = Set<String>()
    for pattern in patterns { all.formUnion(Glob(pattern).expand(in: root, kind: .files)) }
    return all.sorted(by: Glob.precedes)
  }
}
