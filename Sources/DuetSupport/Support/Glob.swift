import Foundation

/// duet's one glob dialect, shared by `modules`, `inputs`, `covers` and Gradle `include`s.
///
/// `*` and `?` match within one path segment, `**` matches zero or more whole
/// segments, a hidden file or folder matches only a segment pattern that starts
/// with `.`, symbolic links are never followed, and matches come back sorted by
/// their path bytes so every fingerprint built from them is stable.
package struct Glob: Sendable, Hashable, CustomStringConvertible {
  package let pattern: String
  package let segments: [String]

  /// Set when the pattern leaves the tree (`..` or a leading `/`): it matches nothing.
  package let escapes: Bool

  package init(_ pattern: String) {
    self.pattern = pattern
    self.escapes = !PathGuard.isInside(pattern)
    var parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
    // Collapse runs of `**`, which mean the same as one.
    parts = parts.enumerated().filter { index, part in !(part == "**" && index > 0 && parts[index - 1] == "**") }.map(\.element)
    self.segments = parts
  }

  package var description: String { pattern }

  /// The one path order of duet: by UTF-8 bytes, as `sort` in the C locale, so
  /// globs, fingerprints and fingerprint blocks agree on every machine.
  package static func precedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// Whether the pattern has no wildcard, so it names one path.
  package var isLiteral: Bool { !pattern.contains(where: { "*?[".contains($0) }) }

  /// How a wildcard treats hidden names. `.special` (modules, covers, includes):
  /// a hidden file or folder matches only a segment that starts with `.`.
  /// `.ordinary` (lane inputs, whose every file must reach the cache key): a
  /// hidden name matches as any name does, except `.git` and `.duet` (the
  /// repository's and duet's own state), which a wildcard never matches.
  package enum HiddenNames: Sendable { case special, ordinary }

  /// Names a wildcard never matches under `.ordinary`.
  package static let stateFolders: Set<String> = [".git", ".duet"]

  /// Whether `path` (relative, `/`-separated) matches the whole pattern.
  package func matches(_ path: String, hidden: HiddenNames = .special) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    return Glob.match(segments, parts, hidden: hidden)
  }

  /// Whole-path matching as a table, from the ends backwards: `table[i][j]` says
  /// whether pattern segments `i...` match path segments `j...`. Each cell is
  /// computed once, so `**/d/**/d/**` over a deep path is polynomial (segments ×
  /// path length × path length at worst), never exponential as backtracking is.
  static func match(_ pattern: [String], _ path: [String], hidden: HiddenNames = .special) -> Bool {
    let p = pattern.count, n = path.count
    var next = [Bool](repeating: false, count: n + 1)
    next[n] = true  // empty pattern matches only the empty rest
    for i in stride(from: p - 1, through: 0, by: -1) {
      var row = [Bool](repeating: false, count: n + 1)
      if pattern[i] == "**" {
        // `**` takes zero segments, or one visible segment and stays.
        row[n] = next[n]
        for j in stride(from: n - 1, through: 0, by: -1) {
          row[j] = next[j] || (wildcardTakes(path[j], hidden) && row[j + 1])
        }
      } else {
        for j in 0..<n where next[j + 1] && segmentMatches(pattern[i], path[j], hidden: hidden) { row[j] = true }
      }
      next = row
    }
    return next[0]
  }

  /// Whether a wildcard (`**`, or a segment not starting with `.`) may take `name`.
  package static func wildcardTakes(_ name: String, _ hidden: HiddenNames) -> Bool {
    switch hidden {
    case .special: return !name.hasPrefix(".")
    case .ordinary: return !stateFolders.contains(name)
    }
  }

  /// One segment against one name: `*` any run, `?` one character; under
  /// `.special` hidden names need a leading `.`.
  package static func segmentMatches(_ pattern: String, _ name: String, hidden: HiddenNames = .special) -> Bool {
    if pattern != name && !pattern.hasPrefix(".") && !wildcardTakes(name, hidden) { return false }
    if pattern.hasPrefix(".") && stateFolders.contains(name) && hidden == .ordinary && pattern != name { return false }
    let p = Array(pattern.unicodeScalars), n = Array(name.unicodeScalars)
    var pi = 0, ni = 0, starP = -1, starN = 0
    while ni < n.count {
      if pi < p.count && (p[pi] == "?" || p[pi] == n[ni]) {
        pi += 1; ni += 1
      } else if pi < p.count && p[pi] == "*" {
        starP = pi; starN = ni; pi += 1
      } else if starP >= 0 {
        pi = starP + 1; starN += 1; ni = starN
      } else {
        return false
      }
    }
    while pi < p.count && p[pi] == "*" { pi += 1 }
    return pi == p.count
  }

  /// What a match may be.
  package enum Kind: Sendable { case files, directories, any }

  /// The paths under `root` that match, relative to it, sorted by path bytes.
  /// Symbolic links are neither followed nor returned.
  /// A pattern that leaves the tree (`..`, a leading `/`) matches nothing.
  package func expand(in root: URL, kind: Kind = .any) -> [String] {
    guard !escapes else { return [] }
    var results: [String] = []
    var visited = Set<Visit>()
    walk(segments[...], directory: root.path, relative: "", kind: kind, into: &results, visited: &visited)
    return Array(Set(results)).sorted(by: Glob.precedes)
  }

  /// One (pattern position, folder) pair of the walk: the same pair is walked
  /// once, so chains of `**` cost folders × segments, not one path per way to split.
  private struct Visit: Hashable {
    var position: Int
    var relative: String
  }

  private func walk(_ pattern: ArraySlice<String>, directory: String, relative: String, kind: Kind, into results: inout [String], visited: inout Set<Visit>) {
    guard let head = pattern.first else { return }
    guard visited.insert(Visit(position: pattern.startIndex, relative: relative)).inserted else { return }
    let rest = pattern.dropFirst()
    if head == "**" {
      if rest.isEmpty {
        // Zero segments: this folder itself; then everything visible below it.
        if !relative.isEmpty && kind != .files { results.append(relative) }
        for entry in Glob.entries(of: directory) where !entry.name.hasPrefix(".") {
          let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
          if entry.isDirectory {
            walk(pattern, directory: directory + "/" + entry.name, relative: path, kind: kind, into: &results, visited: &visited)
          } else if kind != .directories {
            results.append(path)
          }
        }
      } else {
        walk(rest, directory: directory, relative: relative, kind: kind, into: &results, visited: &visited)
        for entry in Glob.entries(of: directory) where entry.isDirectory && !entry.name.hasPrefix(".") {
          let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
          walk(pattern, directory: directory + "/" + entry.name, relative: path, kind: kind, into: &results, visited: &visited)
        }
      }
      return
    }
    let candidates: [Glob.Entry]
    if !head.contains(where: { "*?".contains($0) }) {
      var info = stat()
      let full = directory + "/" + head
      guard lstat(full, &info) == 0 else { return }
      let type = info.st_mode & S_IFMT
      // Links, FIFOs, devices and sockets are never matched (PathGuard's rule).
      guard type == S_IFDIR || type == S_IFREG else { return }
      candidates = [Glob.Entry(name: head, isDirectory: type == S_IFDIR)]
    } else {
      candidates = Glob.entries(of: directory).filter { Glob.segmentMatches(head, $0.name) }
    }
    for entry in candidates {
      let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
      if rest.isEmpty {
        switch kind {
        case .any: results.append(path)
        case .files: if !entry.isDirectory { results.append(path) }
        case .directories: if entry.isDirectory { results.append(path) }
        }
      } else if entry.isDirectory {
        walk(rest, directory: directory + "/" + entry.name, relative: path, kind: kind, into: &results, visited: &visited)
      }
    }
  }

  package struct Entry {
    package var name: String
    package var isDirectory: Bool
  }

  /// The regular files and folders in `directory`, without following links.
  package static func entries(of directory: String) -> [Entry] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var entries: [Entry] = []
    while let raw = readdir(handle) {
      let name = withUnsafePointer(to: raw.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if name == "." || name == ".." { continue }
      var info = stat()
      guard lstat(directory + "/" + name, &info) == 0 else { continue }
      let type = info.st_mode & S_IFMT
      if type == S_IFDIR { entries.append(Entry(name: name, isDirectory: true)) }
      else if type == S_IFREG { entries.append(Entry(name: name, isDirectory: false)) }
    }
    return entries
  }
}
