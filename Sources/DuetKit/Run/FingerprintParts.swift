/// What one lane's fingerprint is made of. The history keeps the parts of each
/// lane's last run, so the next run can say why a lane is not cached (`inputs
/// changed (src/a.swift, 2 more)`, `command changed`) instead of only that it is not.
public struct FingerprintParts: Sendable, Equatable {
  public struct File: Sendable, Equatable {
    public var path: String
    /// Hex SHA-256 of the content, or `unreadable`.
    public var sha256: String
  }

  /// SHA-256 of the command text (`sh:` or the built-in with its arguments).
  public var command: String
  public var dir: String
  /// SHA-256 of the sorted `env:` entries.
  public var env: String
  /// duet's version, for a built-in (its code is part of what it checks).
  public var duet: String?
  /// Each need's name and fingerprint.
  public var needs: [String: String] = [:]
  /// The input files in sorted path order.
  public var files: [File] = []
  /// The git commit and uncommitted-change digest, for a lane without inputs.
  public var git: String?

  public init(command: String, dir: String, env: String, duet: String?) {
    self.command = command
    self.dir = dir
    self.env = env
    self.duet = duet
  }

  /// The lane's fingerprint: SHA-256 over every part, in a fixed order.
  public var fingerprint: String {
    var digest = Digest()
    digest.update(serialized)
    return digest.hex()
  }

  /// One part per line, as the history stores it; `parse` reads it back.
  public var serialized: String {
    var lines = ["duet-lane-fingerprint v2", "command \(command)", "dir \(dir)", "env \(env)"]
    if let duet { lines.append("duet \(duet)") }
    for name in needs.keys.sorted() { lines.append("need \(needs[name]!) \(name)") }
    if let git { lines.append("git \(git)") }
    for file in files { lines.append("file \(file.sha256) \(file.path)") }
    return lines.map { $0.replacingOccurrences(of: "\n", with: "\\n") }.joined(separator: "\n") + "\n"
  }

  /// Parts read back from `serialized`; nil for text in another form.
  public static func parse(_ text: String) -> FingerprintParts? {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    guard lines.first == "duet-lane-fingerprint v2" else { return nil }
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
      case "need", "file":
        guard let gap = rest.firstIndex(of: " ") else { return nil }
        let hash = String(rest[..<gap]), name = String(rest[rest.index(after: gap)...])
        if key == "need" { parts.needs[name] = hash } else { parts.files.append(File(path: name, sha256: hash)) }
      default: return nil
      }
    }
    return parts
  }

  /// Why these parts differ from `earlier`, most telling first: `command changed`,
  /// `env changed`, `dir changed`, `duet changed`, `a need's inputs changed (x)`,
  /// `inputs changed (src/a.swift, 2 more)`, `uncommitted changes`. Empty when equal.
  public func changes(since earlier: FingerprintParts) -> [String] {
    var reasons: [String] = []
    if command != earlier.command { reasons.append("command changed") }
    if env != earlier.env { reasons.append("env changed") }
    if dir != earlier.dir { reasons.append("dir changed") }
    if duet != earlier.duet { reasons.append("duet changed (\(earlier.duet ?? "none") to \(duet ?? "none"))") }
    let changedNeeds = Set(needs.keys).union(earlier.needs.keys).filter { needs[$0] != earlier.needs[$0] }.sorted()
    if !changedNeeds.isEmpty { reasons.append("a need's fingerprint changed (\(FingerprintParts.listed(changedNeeds)))") }
    var before: [String: String] = [:]
    for file in earlier.files { before[file.path] = file.sha256 }
    var changedFiles: [String] = []
    var seen = Set<String>()
    for file in files {
      seen.insert(file.path)
      if before[file.path] != file.sha256 { changedFiles.append(file.path) }
    }
    changedFiles += earlier.files.map(\.path).filter { !seen.contains($0) }
    if !changedFiles.isEmpty { reasons.append("inputs changed (\(FingerprintParts.listed(changedFiles)))") }
    if git != earlier.git { reasons.append("the git commit or uncommitted changes moved") }
    return reasons
  }

  /// `a, b, 3 more`: at most `limit` names.
  static func listed(_ names: [String], limit: Int = 2) -> String {
    let shown = names.prefix(limit).joined(separator: ", ")
    return names.count > limit ? shown + ", \(names.count - limit) more" : shown
  }
}
