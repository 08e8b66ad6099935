import Foundation
import DuetModel
import DuetProcess
import DuetSupport

/// `--strict`: the tracked files a run changed. A snapshot holds `git status` of
/// tracked files and a digest of each dirty file's content, so a file that was
/// already modified before the run and that a lane modified again counts too.
/// Untracked files and ignored ones (`.duet/`) are not looked at.
package struct TrackedChanges: Sendable, Equatable {
  /// Path -> `XY` status and content digest (`-` for a file that is gone).
  var entries: [String: String]

  init(entries: [String: String]) { self.entries = entries }

  /// Nil where the root is not in a git work tree or git is missing.
  package static func snapshot(root: URL, environment: [String: String]) -> TrackedChanges? {
    guard let data = ProcessOutput.gitOutput(["status", "--porcelain=v1", "-z", "--untracked-files=no", "--ignore-submodules=dirty", "--", "."], in: root, environment: environment) else {
      return nil
    }
    guard let top = ProcessOutput.gitOutput(["rev-parse", "--show-toplevel"], in: root, environment: environment) else { return nil }
    let topURL = URL(fileURLWithPath: String(decoding: top, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    var entries: [String: String] = [:]
    for (status, path) in parse(data) {
      let file = topURL.appendingPathComponent(path).path
      let digest = (try? Digest.sha256(fileAt: file)) ?? "-"
      entries[path] = "\(status) \(digest)"
    }
    return TrackedChanges(entries: entries)
  }

  /// `XY path` records of `git status --porcelain=v1 -z`; a rename's second
  /// field (the old path) is skipped. Paths are relative to the repository top.
  static func parse(_ data: Data) -> [(status: String, path: String)] {
    var result: [(String, String)] = []
    let fields = data.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    var i = 0
    while i < fields.count {
      let field = fields[i]
      i += 1
      guard field.count > 3 else { continue }
      let status = String(field.prefix(2))
      result.append((status, String(field.dropFirst(3))))
      if status.contains("R") || status.contains("C") { i += 1 }
    }
    return result
  }

  /// Paths whose status or content differ between `before` and `after`, sorted.
  static func changed(before: TrackedChanges, after: TrackedChanges) -> [String] {
    Set(before.entries.keys).union(after.entries.keys).filter { before.entries[$0] != after.entries[$0] }.sorted()
  }

  /// `--strict: lanes changed 2 tracked file(s): a.txt, b.txt`, for the FAIL line.
  static func summary(_ files: [String]) -> String {
    let shown = files.prefix(10).map { "\($0)" as TerminalLine }.joined(separator: ", ")
    return ("--strict: lanes changed \(files.count) tracked file(s): \(shown)" + (files.count > 10 ? ", …" : "") as TerminalLine).text
  }
}
