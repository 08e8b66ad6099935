import Foundation

/// The input fingerprint of a lane: SHA-256 over its definition (command, env,
/// `dir`), its needs' fingerprints, and the contents of the files its `inputs`
/// (and a built-in's implicit inputs) match, in sorted path order.
///
/// A lane without inputs falls back to its definition plus the git commit and
/// uncommitted changes; without git it has no fingerprint (and is never cached).
public enum InputFingerprint {
  public struct Result: Sendable {
    public var fingerprints: [Int: String]
    /// Lanes whose fingerprint covers their inputs, so an equal one may be served from cache.
    public var cacheable: Set<Int>
  }

  public static func compute(manifest: Manifest, root: URL, selected: Set<Int>, git: GitState?, duetVersion: String) -> Result {
    var fingerprints: [Int: String] = [:]
    var cacheable = Set<Int>()
    let graph = manifest.graph
    let needed = graph.closure(of: selected)
    var indexByName: [String: Int] = [:]
    for (i, lane) in manifest.lanes.enumerated() { indexByName[lane.name] = i }
    for index in graph.topologicalOrder() where needed.contains(index) {
      let lane = manifest.lanes[index]
      var digest = Digest()
      digest.update("duet-lane-fingerprint v1\n")
      digest.update("command:\(lane.commandText)\n")
      digest.update("dir:\(lane.dir ?? ".")\n")
      for entry in lane.env.sorted(by: { $0.name < $1.name }) { digest.update("env:\(entry.name)=\(entry.value)\n") }
      if lane.isBuiltin { digest.update("duet:\(duetVersion)\n") }
      var needsKnown = true
      for need in lane.needs.sorted() {
        guard let j = indexByName[need], let fingerprint = fingerprints[j] else {
          needsKnown = false
          break
        }
        digest.update("need:\(need)=\(fingerprint)\n")
      }
      guard needsKnown else { continue }

      let patterns = lane.inputs + implicitInputs(of: lane, root: root)
      if !patterns.isEmpty {
        for path in files(matching: patterns, root: root) {
          digest.update("file:\(path)\n")
          if let hash = try? Digest.sha256(fileAt: root.appendingPathComponent(path).path) {
            digest.update("sha256:\(hash)\n")
          } else {
            digest.update("unreadable\n")
          }
        }
        fingerprints[index] = digest.hex()
        cacheable.insert(index)
      } else if let git {
        digest.update("git:\(git.commit)\nchanges:\(git.changes)\n")
        fingerprints[index] = digest.hex()
      }
    }
    return Result(fingerprints: fingerprints, cacheable: cacheable)
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
