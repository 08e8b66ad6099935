import DuetSupport
import Foundation

/// What the watcher did when the kernel's events alone would have lost the
/// tree: said in one line each, so a watch never says "watching" while it sees nothing.
enum WatchNotice: Equatable, Sendable {
  /// The kernel's queue overflowed; the tree was rescanned.
  case overflow
  /// The tree's folder was removed or moved away; the watch waits for it.
  case rootGone(String)
  /// The tree's folder is back, watched again.
  case rootBack(String)
  /// Folders past the watch limit, scanned instead of watched, and why.
  case scanning([String], reason: String)
}

/// The watch's view of its source's events: the files a burst changed, and
/// whether the tree is there at all. Changes told before the tree went are
/// dropped (the tree they would run is gone); those after it is back stand.
struct WatchedTree {
  let root: String
  let observer: WatchObserver
  /// The tree's folder is gone; the watch says so rather than "watching".
  private(set) var isGone = false

  /// The files `events` changed, sorted, each once; the notices they carry told on the way.
  mutating func take(_ events: [WatchEvent]) -> [String] {
    var files = Set<String>()
    var failed: [(folder: String, reason: String)] = []
    for event in events {
      switch event {
      case .changed(let paths): files.formUnion(paths)
      case .overflow: observer.noticed(.overflow)
      case .rootGone:
        files = []
        if !isGone { observer.noticed(.rootGone(root)) }
        isGone = true
      case .rootBack:
        isGone = false
        observer.noticed(.rootBack(root))
      case .watchFailed(let folder, let reason): failed.append((folder: folder, reason: reason))
      }
    }
    for reason in Set(failed.map(\.reason)).sorted() {
      observer.noticed(.scanning(failed.filter { $0.reason == reason }.map(\.folder), reason: reason))
    }
    return isGone ? [] : files.sorted(by: Glob.precedes)
  }
}
