import Foundation
import DuetSupport

/// What a sandboxed lane wrote, read from its scratch tree: which of it are
/// its declared outputs and reports (brought back into the tree) and which
/// are not (named, and dropped with the scratch tree).
package enum SandboxCollection {
  /// Every file, link or other non-folder under `folder`, relative to it,
  /// sorted; bubblewrap's mount points are not the lane's writes.
  package static func writtenFiles(under folder: String, mountPoints: Set<String>) -> [String] {
    guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
    var found: [String] = []
    while let path = walk.nextObject() as? String {
      if walk.fileAttributes?[.type] as? FileAttributeType == .typeDirectory || mountPoints.contains(path) { continue }
      found.append(path)
    }
    return found.sorted(by: Glob.precedes)
  }

  /// `files` sorted into the lane's declared reports and its strays: a file
  /// under an output is neither (its output comes back whole).
  package static func sort(_ files: [String], outputs: [String], reports: [String]) -> (reports: [String], strays: [String]) {
    let globs = reports.map { Glob($0) }
    var kept: [String] = [], strays: [String] = []
    for file in files where !outputs.contains(where: { SandboxLayout.isWithin(file, $0) }) {
      if globs.contains(where: { $0.matches(file, hidden: .ordinary) }) { kept.append(file) } else { strays.append(file) }
    }
    return (kept, strays)
  }

  /// Moves each written output (whole) and report from `staging` to its place
  /// under `root`, replacing what was there; a place behind a link is refused.
  /// Returns what could not be brought back.
  package static func bringBack(outputs: [String], reports: [String], from staging: URL, to root: URL) -> [String] {
    var problems: [String] = []
    let manager = FileManager.default
    for path in Set(outputs + reports).sorted() {
      do {
        let target = try PathGuard.resolve(path, in: root)
        try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        var info = stat()
        if lstat(target.path, &info) == 0 { try manager.removeItem(at: target) }
        try manager.moveItem(at: staging.appendingPathComponent(path), to: target)
      } catch {
        problems.append(("cannot bring back \(path) from the sandbox: \(String(describing: error))" as TerminalLine).text)
      }
    }
    return problems
  }

  /// Whether `path` is a regular file now (links followed).
  package static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }
}
