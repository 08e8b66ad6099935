/// What a watcher of a tree tells `duet verify --watch`. The watch loop reads
/// only these, through `ChangeSource`, so tests script them (a folder moved
/// out, the tree gone, an overflow, the watch limit) with no kernel and no
/// real time, as the run loop's tests script its children.
package enum WatchEvent: Equatable, Sendable {
  /// Files made, written, removed, or moved in or out: root-relative paths.
  case changed([String])
  /// The kernel lost events (its queue overflowed): the watcher rescanned the
  /// tree; what the rescan found different comes as `changed`.
  case overflow
  /// The tree's root folder was removed or moved away: nothing is seen until it is back.
  case rootGone
  /// The root folder is back (made again): watched anew after a rescan.
  case rootBack
  /// A folder could not be watched (the system's limit of watches): it is
  /// scanned for changes instead, after a rescan of the tree.
  case watchFailed(folder: String, reason: String)
}

/// Where the watch loop's events come from: the kernel (`FileWatcher`) or a
/// test's script. The loop keeps the time (a `RunClock`) and settles bursts
/// itself; a source only waits and tells.
package protocol ChangeSource: AnyObject, Sendable {
  /// Blocks until events wait, `timeout` seconds pass (nil: no limit) or
  /// `wake()` was called, and returns the events (empty when the time ran
  /// out); nil once woken.
  func next(timeout: Double?) -> [WatchEvent]?
  /// The events waiting, without blocking (what a run changed).
  func drain() -> [WatchEvent]
  /// Ends a `next` in progress, or the next one, which then returns nil.
  func wake()
  /// The tree's files as the events so far left them; nil for a source that
  /// keeps no such view (a test's script). What a run saw, taken as it starts.
  func snapshot() -> TreeScan?
}

extension ChangeSource {
  func snapshot() -> TreeScan? { nil }
}
