import Foundation

/// duet's one glob dialect, shared by `modules`, `inputs`, `covers` and Gradle `include`s.
///
/// `*` and `?` match within one path segment, `**` matches zero or more whole
/// segments, a hidden file or folder matches only a segment pattern that starts
/// with `.`, symbolic links are never followed, and matches come back sorted by
/// their path bytes so every fingerprint built from them is stable.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
  public let pattern: String
  let segments: [String]

  public init(_ pattern: String) {
    self.pattern = pattern
    var parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
    // Collapse runs of `**`, which mean the same as one.
    parts = parts.enumerated().filter { index, part in !(part == "**" && index > 0 && parts[index - 1] == "**") }.map(\.element)
    self.segments = parts
  }

  public var description: String { pattern }

  /// The one path order of duet: by UTF-8 bytes, as `sort` in the C locale, so
  /// globs, fingerprints and fingerprint blocks agree on every machine.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
  }

  /// Whether the pattern has no wildcard, so it names one path.
  public var isLiteral: Bool { !pattern.contains(where: { "*?[".contains($0) }) }

  /// Whether `path` (relative, `/`-separated) matches the whole pattern.
  public func matches(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    return Glob.match(segments[...], parts[...])
  }

  static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
    guard let head = pattern.first else { return path.isEmpty }
    if head == "**" {
      let rest = pattern.dropFirst()
      var remaining = path
      while true {
        if match(rest, remaining) { return true }
        guard let next = remaining.first, !next.hasPrefix(".") else { return false }
        remaining = remaining.dropFirst()
      }
    }
    guard let name = path.first, segmentMatches(head, name) else { return false }
    return match(pattern.dropFirst(), path.dropFirst())
  }

  /// One segment against one name: `*` any run, `?` one character; hidden names need a leading `.`.
  public static func segmentMatches(_ pattern: String, _ name: String) -> Bool {
    if name.hasPrefix(".") && !pattern.hasPrefix(".") { return false }
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
  public enum Kind: Sendable { case files, directories, any }

  /// The paths under `root` that match, relative to it, sorted by path bytes.
  /// Symbolic links are neither followed nor returned.
  public func expand(in root: URL, kind: Kind = .any) -> [String] {
    var results: [String] = []
    walk(segments[...], directory: root.path, relative: "", kind: kind, into: &results)
    return Array(Set(results)).sorted(by: Glob.precedes)
  }

  private func walk(_ pattern: ArraySlice<String>, directory: String, relative: String, kind: Kind, into results: inout [String]) {
    guard let head = pattern.first else { return }
    let rest = pattern.dropFirst()
    if head == "**" {
      if rest.isEmpty {
        // Zero segments: this folder itself; then everything visible below it.
        if !relative.isEmpty && kind != .files { results.append(relative) }
        for entry in Glob.entries(of: directory) where !entry.name.hasPrefix(".") {
          let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
          if entry.isDirectory {
            walk(pattern, directory: directory + "/" + entry.name, relative: path, kind: kind, into: &results)
          } else if kind != .directories {
            results.append(path)
          }
        }
      } else {
        walk(rest, directory: directory, relative: relative, kind: kind, into: &results)
        for entry in Glob.entries(of: directory) where entry.isDirectory && !entry.name.hasPrefix(".") {
          let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
          walk(pattern, directory: directory + "/" + entry.name, relative: path, kind: kind, into: &results)
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
      guard type != S_IFLNK else { return }
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
        walk(rest, directory: directory + "/" + entry.name, relative: path, kind: kind, into: &results)
      }
    }
  }

  struct Entry {
    var name: String
    var isDirectory: Bool
  }

  /// The regular files and folders in `directory`, without following links.
  static func entries(of directory: String) -> [Entry] {
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
