import DuetModel
import DuetSupport

/// What one lane's fingerprint is made of. The history keeps the parts of each
/// lane's last run, so the next run can say why a lane is not cached (`inputs
/// changed (src/a.swift, 2 more)`, `command changed`) instead of only that it is not.
package struct FingerprintParts: Sendable, Equatable {
  package struct File: Sendable, Equatable {
    package var path: String
    /// Hex SHA-256 of the content, or `unreadable`.
    var sha256: String
    package init(path: String, sha256: String) {
      self.path = path
      self.sha256 = sha256
    }
  }

  /// SHA-256 of the command text (`sh:` or the built-in with its arguments).
  var command: String
  var dir: String
  /// SHA-256 of the sorted `env:` entries.
  var env: String
  /// duet's version, for a built-in (its code is part of what it checks).
  var duet: String?
  /// Each need's name and fingerprint.
  package var needs: [String: String] = [:]
  /// The input files in sorted path order.
  package var files: [File] = []
  /// The git commit and uncommitted-change digest, for a lane without inputs.
  package var git: String?
  /// Where it ran (`linux-x86_64`): a pass on another platform says nothing here.
  package var platform: String = ""
  /// Each `requires:` program's identity (the SHA-256 of the file `PATH` finds,
  /// or `missing`), so a pass with another version of a tool is not reused.
  package var programs: [String: String] = [:]
  /// Each `env-inputs:` variable's value as a keyed hash (`EnvInputDigest`;
  /// never the value, nor its bare digest), or `unset`.
  package var envInputs: [String: String] = [:]
  /// Under `--since`/`--changed`: the digest of the changed-file list lanes
  /// read from `DUET_CHANGED_FILES`; nil for a full run.
  package var changedList: String?
  /// The lane's name, which it sees as `DUET_LANE`: two lanes with one command
  /// and one set of inputs are not served each other's passes (issue 51). Nil
  /// in parts a duet before it stored.
  package var lane: String?
  /// The lane's timeout in seconds: a pass that took longer than the timeout
  /// now set would time out, so it serves no run under it (issue 51).
  package var timeout: String?

  package init(command: String, dir: String, env: String, duet: String?) {
    self.command = command
    self.dir = dir
    self.env = env
    self.duet = duet
  }

  /// The lane's fingerprint: SHA-256 over every part, in a fixed order.
  package var fingerprint: String {
    var digest = Digest()
    digest.update(serialized)
    return digest.hex()
  }

  /// The first line of `serialized`: the form the parts are in.
  static let header = "duet-lane-fingerprint v2"

  /// One part per line, as the history stores it; `parse` reads it back.
  var serialized: String {
    var lines = [FingerprintParts.header, "command \(command)", "dir \(dir)", "env \(env)", "platform \(platform)"]
    if let lane { lines.append("lane \(lane)") }
    if let timeout { lines.append("timeout \(timeout)") }
    if let duet { lines.append("duet \(duet)") }
    if let changedList { lines.append("changed-list \(changedList)") }
    for name in programs.keys.sorted() { lines.append("program \(programs[name]!) \(name)") }
    for name in envInputs.keys.sorted() { lines.append("env-input \(envInputs[name]!) \(name)") }
    for name in needs.keys.sorted() { lines.append("need \(needs[name]!) \(name)") }
    if let git { lines.append("git \(git)") }
    for file in files { lines.append("file \(file.sha256) \(file.path)") }
    return lines.map(Self.oneLine).joined(separator: "\n") + "\n"
  }

  /// `text` with each line feed written `\n`, byte for byte as Foundation's
  /// `replacingOccurrences` wrote it (a `\r\n` keeps its `\r`), without its
  /// cost: a copy as an NSString for every line, a tenth of a 1,000-lane
  /// run's own time, for lines that almost never hold a line feed.
  static func oneLine(_ text: String) -> String {
    guard text.utf8.contains(0x0A) else { return text }
    return text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
      .map { String(Substring($0)) }.joined(separator: "\\n")
  }

  /// Parts read back from `serialized`; nil for text in another form.
  static func parse(_ text: String) -> FingerprintParts? {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    guard lines.first == header else { return nil }
    lines.removeFirst()
    var parts = FingerprintParts(command: "", dir: "", env: "", duet: nil)
    for line in lines {
      guard let space = line.firstIndex(of: " ") else { return nil }
      let key = line[..<space]
      let rest = String(line[line.index(after: space)...])
      switch key {
      case "command": parts.command = rest
      case "dir": parts.dir = rest
      case "env": parts.env = rest
      case "duet": parts.duet = rest
      case "git": parts.git = rest
      case "platform": parts.platform = rest
      case "changed-list": parts.changedList = rest
      case "lane": parts.lane = rest
      case "timeout": parts.timeout = rest
      case "need", "file", "program", "env-input":
        guard let gap = rest.firstIndex(of: " ") else { return nil }
        let hash = String(rest[..<gap]), name = String(rest[rest.index(after: gap)...])
        switch key {
        case "need": parts.needs[name] = hash
        case "program": parts.programs[name] = hash
        case "env-input": parts.envInputs[name] = hash
        default: parts.files.append(File(path: name, sha256: hash))
        }
      default: return nil
      }
    }
    return parts
  }

  /// Why these parts differ from `earlier`, most telling first: `command changed`,
  /// `env changed`, `dir changed`, `duet changed`, `a need's inputs changed (x)`,
  /// `inputs changed (src/a.swift, 2 more)`, `uncommitted changes`. Empty when equal.
  package func changes(since earlier: FingerprintParts) -> [String] {
    var reasons: [String] = []
    if command != earlier.command { reasons.append("command changed") }
    if env != earlier.env { reasons.append("env changed") }
    if dir != earlier.dir { reasons.append("dir changed") }
    if lane != earlier.lane {
      reasons.append(earlier.lane == nil ? "its key now holds the lane's name and timeout" : "it is another lane's pass (\(earlier.lane ?? ""))")
    } else if timeout != earlier.timeout {
      reasons.append("timeout changed (\(earlier.timeout ?? "none") s to \(timeout ?? "none") s)")
    }
    if duet != earlier.duet { reasons.append("duet changed (\(earlier.duet ?? "none") to \(duet ?? "none"))") }
    if changedList != earlier.changedList {
      reasons.append(earlier.changedList == nil ? "it last passed on the whole tree, now on a change list" : changedList == nil
        ? "it last passed on a change list (--since), not the whole tree" : "the change list (--since) differs")
    }
    if platform != earlier.platform { reasons.append("last passed on another platform (\(earlier.platform))") }
    let changedPrograms = Set(programs.keys).union(earlier.programs.keys).filter { programs[$0] != earlier.programs[$0] }.sorted()
    if !changedPrograms.isEmpty { reasons.append("a required program changed (\(FingerprintParts.listed(changedPrograms)))") }
    let changedEnv = Set(envInputs.keys).union(earlier.envInputs.keys).filter { envInputs[$0] != earlier.envInputs[$0] }.sorted()
    if !changedEnv.isEmpty { reasons.append("env-inputs changed (\(FingerprintParts.listed(changedEnv)))") }
    let changedNeeds = Set(needs.keys).union(earlier.needs.keys).filter { needs[$0] != earlier.needs[$0] }.sorted()
    if !changedNeeds.isEmpty { reasons.append("a need's fingerprint changed (\(FingerprintParts.listed(changedNeeds)))") }
    let changedFiles = FingerprintParts.changedPaths(files, since: earlier.files)
    if !changedFiles.isEmpty { reasons.append("inputs changed (\(FingerprintParts.listed(changedFiles)))") }
    if git != earlier.git { reasons.append("the git commit or uncommitted changes moved") }
    return reasons
  }

  /// The paths whose key differs between two file lists: changed, added, then gone.
  /// Paths are told apart by their bytes: Swift's `==` on strings holds the NFC
  /// and NFD spellings of `é.txt` equal, and they are two files.
  package static func changedPaths(_ files: [File], since earlier: [File]) -> [String] {
    var before: [[UInt8]: String] = [:]
    for file in earlier { before[Array(file.path.utf8)] = file.sha256 }
    var changed: [String] = []
    var seen = Set<[UInt8]>()
    for file in files {
      seen.insert(Array(file.path.utf8))
      if before[Array(file.path.utf8)] != file.sha256 { changed.append(file.path) }
    }
    return changed + earlier.map(\.path).filter { !seen.contains(Array($0.utf8)) }
  }

  /// `a, b, 3 more`: at most `limit` names.
  package static func listed(_ names: [String], limit: Int = 2) -> String {
    let shown = names.prefix(limit).joined(separator: ", ")
    return names.count > limit ? shown + ", \(names.count - limit) more" : shown
  }
}
