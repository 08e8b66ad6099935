@testable import DuetFuzzSupport
import Foundation
import Testing

/// Issue 26's proof: random trees and edit sequences against lanes whose result
/// is a pure function of their inputs (a lane fails when a file it reaches holds
/// `BAD`), checked after every run against a model the test keeps itself.
///
/// The edits: file content, executable bits, renames, deletions, hidden names,
/// names that are not UTF-8, NFC and NFD spellings of one name (two files), links
/// to a file or folder inside the tree, out of it and to nothing, retargeted
/// links, edits of what a link reaches, and a lane that writes into its own
/// inputs while it runs (`l5`, when `a5/stamp` exists); the runs: plain, `--strict` and
/// `--since HEAD`, each also with `DUET_HISTORY=off` (issue 51: no run is
/// recorded, the cache's entries still serve and are written), and runs of one
/// twin alone (`--lane`). Issue 51, items 6–7: `t3` is `l3`'s twin (one command,
/// one set of inputs) whose `timeout:` an edit switches, so a pass of one twin
/// must never serve the other, nor a pass under another timeout. The invariants, after every run: a lane reported `cached`
/// passes when run now (the model's outcome), a lane that ran has the model's
/// outcome, and a lane runs only when the model says its inputs or the
/// conditions of its last pass ask for it. Seeded; a failure names the seed, the
/// step and the edits so far.
@Suite("The cache against an oracle, randomised")
struct CacheOracleCLITests {
  @Test(arguments: [UInt64(0x5EED_0001), 0x5EED_0002, 0x5EED_0003])
  func cachedMeansWouldPassNow(seed: UInt64) throws {
    var oracle = try CacheOracle(seed: seed)
    for step in 0..<100 {
      let edit = oracle.randomEdit()
      try oracle.apply(edit)
      let problems = try oracle.runAndCheck()
      if !problems.isEmpty {
        Issue.record("seed \(String(seed, radix: 16)), step \(step): \(problems.joined(separator: "; "))\nedits:\n\(oracle.log.joined(separator: "\n"))")
        return
      }
    }
  }
}

/// The tree, its model, and the model's idea of each lane's last pass.
private struct CacheOracle {
  enum Node: Equatable {
    case file(content: String, executable: Bool)
    case link(target: String)
  }

  /// What a lane's key should hold: its reachable entries, by path bytes.
  typealias Snapshot = [[UInt8]: String]

  /// What an action key stands for: the lane's snapshot and (for `l4`) its need's.
  struct EntryKey: Hashable {
    var snapshot: Snapshot
    var need: Snapshot?
    /// `t3`'s timeout in seconds when it ran; nil for the other lanes.
    var timeout: Int?
  }

  struct LastPass {
    var snapshot: Snapshot
    var needSnapshot: Snapshot?
    var strict: Bool
    var partial: Bool
    /// `t3`'s timeout when it passed.
    var timeout: Int? = nil
  }

  enum Mode: String { case plain, strict, since }

  static let areas = ["a1", "a2", "a3", "a4", "a5"]
  /// The lanes the model judges: `t3` reads `a3` as its twin `l3` does.
  static let lanes = ["l1", "l2", "l3", "l4", "l5", "t3"]
  /// The timeouts an edit switches `t3` between, in seconds: at the first, it is `l3` but for its name.
  static let timeouts = [10, 20]
  /// File names an edit may use: plain, hidden, Latin-1, NFC and NFD `é`, nested.
  static let names: [[UInt8]] = [
    Array("x.txt".utf8), Array(".hidden".utf8), [0x63, 0x61, 0x66, 0xE9], [0xC3, 0xA9, 0x2E, 0x74], [0x65, 0xCC, 0x81, 0x2E, 0x74],
    Array("sub/y.txt".utf8), Array("sub/.z".utf8), Array("stamp".utf8),
  ]

  let tree: FixtureTree
  /// A folder outside the tree, whose file a link may name; never edited.
  let outsideTree: FixtureTree
  var outside: URL { outsideTree.url }
  var random: SeededRandom
  /// Area files and links by their path bytes relative to the root; `lib/` and `shared.txt` too.
  var nodes: [[UInt8]: Node] = [:]
  var lastPass: [String: LastPass] = [:]
  /// Issue 37: the cache entries, by lane, then by what the key holds (the
  /// lane's snapshot and its need's): the conditions of the newest pass there.
  var entries: [String: [EntryKey: LastPass]] = [:]
  /// The newest verdict of a lane that ran: what it saw and whether it passed.
  var lastVerdict: [String: (key: EntryKey, passed: Bool)] = [:]
  var log: [String] = []
  /// What `a5/stamp` held before `l5` last appended to it: writing it back makes
  /// the inputs equal to those `l5`'s last pass was fingerprinted from.
  var stampBeforeLane: String?
  /// `t3`'s `timeout:` as the manifest says now.
  var twinTimeout = 10

  init(seed: UInt64) throws {
    random = SeededRandom(seed: seed)
    tree = try FixtureTree(manifest: CacheOracle.manifest(twinTimeout: 10))
    outsideTree = try FixtureTree()
    try outsideTree.write("o.txt", "fine\n")
    for area in CacheOracle.areas { try set(Array("\(area)/keep.txt".utf8), .file(content: "ok\n", executable: false)) }
    try set(Array("shared.txt".utf8), .file(content: "ok\n", executable: false))
    try set(Array("lib/l.txt".utf8), .file(content: "ok\n", executable: false))
    try tree.write(".gitignore", ".duet/\n")
    try CIGit.commitAll(tree)
  }

  /// The lanes, with `t3`'s timeout as given.
  static func manifest(twinTimeout: Int) -> String {
    """
    version: 1
    lanes:
      - {name: l1, sh: "! grep -Rqs BAD a1", inputs: ["a1/**"]}
      - {name: l2, sh: "! grep -Rqs BAD a2", inputs: ["a2/**"]}
      - {name: l3, sh: "! grep -Rqs BAD a3", inputs: ["a3/**"], timeout: 10s}
      - {name: l4, sh: "! grep -Rqs BAD a4", inputs: ["a4/**"], needs: [l1]}
      - {name: l5, sh: "! grep -Rqs BAD a5 && { [ ! -f a5/stamp ] || echo stamped >> a5/stamp; }", inputs: ["a5/**"]}
      - {name: p2, sh: "rm -rf out2 && mkdir -p out2/sub out2/each && cp a2/keep.txt out2/keep.txt && chmod 755 out2/keep.txt && (cd a2 && ls -A | LC_ALL=C sort) > out2/sub/names && (cd a2 && ls -A) | while IFS= read -r n; do : > \\\"out2/each/$n\\\"; done", inputs: ["a2/**"], outputs: [out2]}
      - {name: t3, sh: "! grep -Rqs BAD a3", inputs: ["a3/**"], timeout: \(twinTimeout)s}
    """
  }

  // MARK: - Edits

  enum Edit {
    case write([UInt8], String)
    case remove([UInt8])
    case rename([UInt8], [UInt8])
    case toggleExecutable([UInt8])
    case link([UInt8], String)
    /// Issue 37: the outputs of `p2` removed (`git clean`), edited or re-moded by hand.
    case tamper(Int)
    /// Issue 51, item 7: `t3`'s `timeout:` switched to the other one.
    case retime
    case nothing
  }

  mutating func randomEdit() -> Edit {
    let area = random.pick(CacheOracle.areas)
    let content = random.below(4) == 0 ? "BAD \(random.below(100))\n" : "ok \(random.below(100))\n"
    let inArea = nodes.keys.filter { $0.starts(with: Array("\(area)/".utf8)) && $0 != Array("\(area)/keep.txt".utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    switch random.below(11) {
    case 0, 1: return .write(Array("\(area)/".utf8) + random.pick(CacheOracle.names), content)
    case 2: return inArea.isEmpty ? .nothing : .remove(random.pick(inArea))
    case 3:
      guard !inArea.isEmpty else { return .nothing }
      return .rename(random.pick(inArea), Array("\(area)/".utf8) + random.pick(CacheOracle.names))
    case 4:
      let files = inArea.filter { if case .file = nodes[$0] { return true } else { return false } }
      return files.isEmpty ? .nothing : .toggleExecutable(random.pick(files))
    case 5:
      let targets = ["../shared.txt", "../lib", outside.appendingPathComponent("o.txt").path, "../nowhere"]
      return .link(Array("\(area)/".utf8) + Array("link\(random.below(2))".utf8), random.pick(targets))
    case 6: return .write(Array("shared.txt".utf8), content)
    case 7: return .write(Array(random.below(2) == 0 ? "lib/l.txt".utf8 : "lib/m.txt".utf8), content)
    case 8, 9: return .write(Array("a5/stamp".utf8), stampBeforeLane ?? content)
    default: return [.tamper(random.below(3)), .retime, .nothing][random.below(3)]
    }
  }

  mutating func apply(_ edit: Edit) throws {
    switch edit {
    case .write(let path, let content): try set(path, .file(content: content, executable: executable(path)))
    case .remove(let path):
      try unlinkPath(path)
      nodes[path] = nil
      removeEmptyParents(path)
    case .rename(let from, let to):
      guard from != to, let node = nodes[from], nodes[to] == nil else { return }
      try makeParents(to)
      try check(rename(cPath(from), cPath(to)), "rename")
      nodes[from] = nil
      removeEmptyParents(from)
      nodes[to] = node
    case .toggleExecutable(let path):
      guard case .file(let content, let executable) = nodes[path] else { return }
      try check(chmod(cPath(path), executable ? 0o644 : 0o755), "chmod")
      nodes[path] = .file(content: content, executable: !executable)
    case .link(let path, let target): try set(path, .link(target: target))
    case .tamper(let how):
      let out = tree.url.appendingPathComponent("out2")
      switch how {
      case 0: try? FileManager.default.removeItem(at: out)
      case 1: try? Data("tampered\n".utf8).write(to: out.appendingPathComponent("keep.txt"))
      default: _ = chmod(out.appendingPathComponent("keep.txt").path, 0o644)
      }
    case .retime:
      twinTimeout = CacheOracle.timeouts.first { $0 != twinTimeout } ?? twinTimeout
      try tree.write("lanes/manifest.yaml", CacheOracle.manifest(twinTimeout: twinTimeout))
    case .nothing: break
    }
    log.append(describe(edit))
  }

  func executable(_ path: [UInt8]) -> Bool {
    if case .file(_, let executable) = nodes[path] { return executable }
    return false
  }

  mutating func set(_ path: [UInt8], _ node: Node) throws {
    try makeParents(path)
    if nodes[path] != nil || lstatExists(path) { try unlinkPath(path) }
    switch node {
    case .file(let content, let executable):
      let fd = open(cPath(path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, executable ? 0o755 : 0o644)
      try check(fd >= 0 ? 0 : -1, "open")
      _ = content.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
      close(fd)
    case .link(let target):
      try check(symlink(target, cPath(path)), "symlink")
    }
    nodes[path] = node
  }

  func cPath(_ relative: [UInt8]) -> [CChar] {
    (Array(tree.url.path.utf8) + [0x2F] + relative).map { CChar(bitPattern: $0) } + [0]
  }

  func lstatExists(_ path: [UInt8]) -> Bool {
    var info = stat()
    return lstat(cPath(path), &info) == 0
  }

  func unlinkPath(_ path: [UInt8]) throws { try check(unlink(cPath(path)), "unlink") }

  /// The model holds files and links, not folders: a folder its last file left
  /// goes too (p2 lists `a2`, where an empty `sub` showed as a name the model lacked).
  func removeEmptyParents(_ path: [UInt8]) {
    var parts = path.split(separator: 0x2F).dropLast()
    while parts.count > 1 {
      if rmdir(cPath(Array(parts.joined(separator: [0x2F])))) != 0 { return }
      parts = parts.dropLast()
    }
  }

  func makeParents(_ path: [UInt8]) throws {
    var prefix: [UInt8] = []
    for part in path.split(separator: 0x2F).dropLast() {
      prefix += prefix.isEmpty ? Array(part) : [0x2F] + Array(part)
      _ = mkdir(cPath(prefix), 0o755)
    }
  }

  func check(_ result: Int32, _ what: String) throws {
    if result != 0 { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(errno)))"]) }
  }

  func describe(_ edit: Edit) -> String {
    func text(_ bytes: [UInt8]) -> String { bytes.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined() }
    switch edit {
    case .write(let path, let content): return "write \(text(path)) \(content.debugDescription)"
    case .remove(let path): return "remove \(text(path))"
    case .rename(let from, let to): return "rename \(text(from)) \(text(to))"
    case .toggleExecutable(let path): return "chmod \(text(path))"
    case .link(let path, let target): return "link \(text(path)) -> \(target)"
    case .tamper(let how): return ["remove out2", "edit out2/keep.txt", "chmod 644 out2/keep.txt"][how]
    case .retime: return "t3 timeout: \(twinTimeout)s"
    case .nothing: return "nothing"
    }
  }

  // MARK: - The model

  /// What lane `area`'s key should hold: its files, each link by its text and
  /// what it reaches inside the tree (a file's content, a folder's files).
  func snapshot(_ area: String) -> Snapshot {
    var snapshot: Snapshot = [:]
    let prefix = Array("\(area)/".utf8)
    for (path, node) in nodes where path.starts(with: prefix) {
      switch node {
      case .file(let content, let executable): snapshot[path] = content + (executable ? "+x" : "")
      case .link(let target):
        snapshot[path] = "link " + target
        // `../x` reaches the root's `x` only from an area's top; a link renamed
        // into `sub/` names a path that does not exist.
        guard path.filter({ $0 == 0x2F }).count == 1 else { continue }
        if target == "../shared.txt", case .file(let content, _) = nodes[Array("shared.txt".utf8)] { snapshot[path]! += " " + content }
        if target == "../lib" {
          for (libPath, libNode) in nodes where libPath.starts(with: Array("lib/".utf8)) {
            if case .file(let content, _) = libNode { snapshot[path + [0x2F] + libPath.dropFirst(4)] = content }
          }
        }
      }
    }
    return snapshot
  }

  /// The lane's outcome run now: it fails when a file it reaches holds `BAD`.
  /// A link's target is a path, not content: the outside folder's random name
  /// held `BAD` once (`/tmp/duet-e2e-EBAD522E-…`) and the model said "fails".
  func passes(_ area: String) -> Bool {
    let links = Set(nodes.values.compactMap { node -> String? in
      if case .link(let target) = node { return "link " + target }
      return nil
    })
    return !snapshot(area).values.contains { value in
      let read = links.first(where: { value.hasPrefix($0) }).map { String(value.dropFirst($0.count)) } ?? value
      return read.contains("BAD")
    }
  }

  /// The area a lane reads: `l3` and its twin `t3` read `a3`.
  func area(_ lane: String) -> String { "a" + lane.dropFirst() }

  /// Whether the model says the lane should be served from the cache in a run of `mode`.
  func expectsCached(_ name: String, mode: Mode, reported: [String: String], historyOff: Bool = false) -> Bool {
    let area = area(name)
    if area == "a4" {
      guard let need = reported["l1"], need == "cached" || need == "unaffected" else { return false }
    }
    // Issue 51: the entry is the one record of a pass; the history only vetoes
    // it with a failure of these very inputs (and is not read when it is off).
    return entryServes(name, mode: mode, historyOff: historyOff)
  }

  func key(_ name: String) -> EntryKey {
    let area = area(name)
    return EntryKey(snapshot: snapshot(area), need: area == "a4" ? snapshot("a1") : nil, timeout: name == "t3" ? twinTimeout : nil)
  }

  /// A cache entry serves a lane whose history would run it: one exists for
  /// what it sees now, its conditions cover the run, and the lane's newest
  /// verdict is not a failure on these very inputs.
  func entryServes(_ name: String, mode: Mode, historyOff: Bool = false) -> Bool {
    let now = key(name)
    guard let entry = entries[name]?[now] else { return false }
    if !historyOff, let last = lastVerdict[name], last.key == now, !last.passed { return false }
    if mode == .strict && !entry.strict { return false }
    if entry.partial && mode != .since { return false }
    return true
  }

  func historyServes(_ name: String, mode: Mode, reported: [String: String]) -> Bool {
    let area = area(name)
    guard let last = lastPass[name], last.snapshot == snapshot(area), last.timeout == key(name).timeout else { return false }
    if mode == .strict && !last.strict { return false }
    if last.partial && mode != .since { return false }
    if area == "a4" {
      guard last.needSnapshot == snapshot("a1"), let need = reported["l1"], need == "cached" || need == "unaffected" else { return false }
    }
    return true
  }

  // MARK: - A run and its check

  mutating func runAndCheck() throws -> [String] {
    let mode: Mode = [.plain, .plain, .plain, .strict, .since][random.below(5)]
    var arguments = ["verify", "--json"]
    if mode == .strict { arguments.append("--strict") }
    if mode == .since { arguments += ["--since", "HEAD"] }
    // One twin alone now and then: the other has no pass of its own yet.
    let alone = random.below(6) == 0 ? random.pick(["l3", "t3"]) : nil
    if let alone { arguments += ["--lane", alone] }
    let historyOff = random.below(5) == 0
    log.append("run \(mode.rawValue)\(alone.map { " --lane " + $0 } ?? "")\(historyOff ? " DUET_HISTORY=off" : "")")
    let run = try tree.duet(arguments: arguments, environment: historyOff ? ["DUET_HISTORY": "off"] : [:])
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let lanes = object?["lanes"] as? [[String: Any]] ?? []
    var reported: [String: String] = [:]
    for lane in lanes { reported[lane["name"] as? String ?? "?"] = lane["outcome"] as? String }
    let treeUnchanged = (object?["changedTrackedFiles"] as? [Any])?.isEmpty ?? true
    var problems: [String] = []
    for name in CacheOracle.lanes where alone == nil || alone == name {
      guard let outcome = reported[name] else {
        problems.append("\(name) missing from the report: \(run.stdout) \(run.stderr)")
        continue
      }
      let expected = expectsCached(name, mode: mode, reported: reported, historyOff: historyOff)
      // No run is recorded: the history the next run reads is as it was.
      let (passBefore, verdictBefore) = (lastPass[name], lastVerdict[name])
      defer { if historyOff { (lastPass[name], lastVerdict[name]) = (passBefore, verdictBefore) } }
      problems += judge(name, outcome: outcome, expected: expected, mode: mode, reported: reported, treeUnchanged: treeUnchanged)
    }
    if let outcome = reported["p2"], outcome == "pass" || outcome == "cached" {
      problems += outputProblems(outcome)
    }
    return problems
  }

  /// Checks one lane's reported outcome against the model, then updates the model with it.
  mutating func judge(_ name: String, outcome: String, expected: Bool, mode: Mode, reported: [String: String], treeUnchanged: Bool) -> [String] {
    let area = area(name), now = key(name)
    var problems: [String] = []
    switch outcome {
    case "cached":
      if !passes(area) { problems.append("\(name) cached, but it fails when run now") }
      if !expected { problems.append("\(name) cached, but the model says it must run") }
      // Served from an entry, the history now holds a cached verdict for these
      // inputs under the entry's conditions.
      if !historyServes(name, mode: mode, reported: reported), let entry = entries[name]?[now] {
        lastPass[name] = LastPass(snapshot: snapshot(area), needSnapshot: area == "a4" ? snapshot("a1") : nil,
                                  strict: entry.strict, partial: entry.partial, timeout: now.timeout)
      }
      lastVerdict[name] = (now, true)
    case "pass", "fail":
      if (outcome == "pass") != passes(area) { problems.append("\(name) \(outcome), but the model says it \(passes(area) ? "passes" : "fails")") }
      if expected { problems.append("\(name) ran (\(outcome)) though nothing it saw changed since it last passed") }
      lastPass[name] = outcome == "pass"
        ? LastPass(snapshot: snapshot(area), needSnapshot: area == "a4" ? snapshot("a1") : nil,
                   strict: mode == .strict && treeUnchanged, partial: mode == .since, timeout: now.timeout)
        : nil
      lastVerdict[name] = (now, outcome == "pass")
      let entryBefore = entries[name]?[now]
      if outcome == "pass" && treeUnchanged { entries[name, default: [:]][now] = lastPass[name] }
      let stamp = Array("a5/stamp".utf8)
      if name == "l5", outcome == "pass", case .file(let content, let executable) = nodes[stamp] {
        // The lane appended to its own input while it ran: that pass serves no later run.
        // Moved inputs: no entry is written, an earlier one for these inputs stays.
        entries[name]?[now] = entryBefore
        nodes[stamp] = .file(content: content + "stamped\n", executable: executable)
        stampBeforeLane = content
        lastPass[name] = nil
      }
    default: break  // unaffected, skipped: not a verdict on the lane
    }
    return problems
  }

  /// What `p2` writes when it runs now, which a cached `p2` must have restored:
  /// `out2/keep.txt` (mode 755) and the sorted names at the top of `a2`.
  /// The names in a folder as bytes (Foundation's strings would lose a Latin-1 one).
  static func names(in folder: String) -> [[UInt8]] {
    guard let dir = opendir(folder) else { return [] }
    defer { closedir(dir) }
    var names: [[UInt8]] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
      if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
    }
    return names
  }

  func outputProblems(_ outcome: String) -> [String] {
    let prefix = Array("a2/".utf8)
    var names = Set<[UInt8]>()
    for path in nodes.keys where path.starts(with: prefix) {
      let rest = path.dropFirst(prefix.count)
      names.insert(Array(rest.prefix { $0 != 0x2F }))
    }
    var expected: [UInt8] = []
    for name in names.sorted(by: { $0.lexicographicallyPrecedes($1) }) { expected += name + [0x0A] }
    var problems: [String] = []
    let out = tree.url.appendingPathComponent("out2")
    if FileManager.default.contents(atPath: out.appendingPathComponent("sub/names").path).map(Array.init) != expected {
      problems.append("p2 \(outcome), but out2/sub/names is not what a --no-cache run writes")
    }
    if FileManager.default.contents(atPath: out.appendingPathComponent("keep.txt").path) != Data("ok\n".utf8) {
      problems.append("p2 \(outcome), but out2/keep.txt is not what a --no-cache run writes")
    }
    // Issue 51, item 10: a file per name, so a pass restored after another
    // with more names must leave the folder with exactly its own.
    let each = CacheOracle.names(in: out.appendingPathComponent("each").path)
    if Set(each) != names {
      let shown = { (set: [[UInt8]]) in set.map { String(decoding: $0, as: UTF8.self) }.sorted().joined(separator: ", ") }
      problems.append("p2 \(outcome), but out2/each holds \(each.count) files (\(shown(each))) where a --no-cache run writes \(names.count) (\(shown(Array(names))))")
    }
    var info = stat()
    if lstat(out.appendingPathComponent("keep.txt").path, &info) != 0 || info.st_mode & 0o7777 != 0o755 {
      problems.append("p2 \(outcome), but out2/keep.txt has not mode 755")
    }
    return problems
  }
}
