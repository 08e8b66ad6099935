import Foundation
import DuetSupport

/// The scratch folders of a run's sandboxed attempts (issue 56, item 2),
/// under `.duet/sandbox/<run>/`: an attempt takes a free one and gives it back
/// emptied, so a run makes and removes as many as run at once, not one (with
/// its scratch tree) per lane. On the machine of docs/performance.md a folder
/// made and removed cost a few milliseconds, as much as a third of a lane's
/// start under bubblewrap. Removed whole when the run ends.
package final class SandboxScratch: Sendable {
  package let base: URL
  /// The folders given back, emptied, and how many were made.
  private let state = Locked<(free: [URL], made: Int)>(([], 0))

  package init(base: URL) { self.base = base }

  /// A free folder, with an empty `tree` in it; made when none is free.
  package func claim() throws -> URL {
    if let folder = state.withLock({ $0.free.popLast() }) { return folder }
    let number = state.withLock { state -> Int in
      state.made += 1
      return state.made
    }
    let folder = base.appendingPathComponent("\(number)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("tree"), withIntermediateDirectories: true)
    return folder
  }

  /// Empties `folder`'s tree (what the lane wrote and bubblewrap's mount
  /// points) and makes it free again; a folder that cannot be emptied is not
  /// used again (the run's end removes it).
  package func giveBack(_ folder: URL) {
    let manager = FileManager.default
    let tree = folder.appendingPathComponent("tree")
    do {
      for name in try manager.contentsOfDirectory(atPath: tree.path) {
        try manager.removeItem(at: tree.appendingPathComponent(name))
      }
    } catch {
      return
    }
    state.withLock { $0.free.append(folder) }
  }

  /// Removes every folder of the run: after the last attempt.
  package func removeAll() {
    try? FileManager.default.removeItem(at: base)
  }
}
