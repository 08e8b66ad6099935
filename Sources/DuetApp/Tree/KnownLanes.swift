import DuetHistory
import DuetModel
import DuetSupport
import Foundation

/// A lane name as a command line gives it: `duet logs LANE`, `--lane NAME`,
/// `--skip LANE`, `--stream LANE`.
struct LaneWord: Sendable, Equatable {
  var text: String
  /// The option that gave it (`--lane`); nil for the command's own LANE word.
  var origin: String?
  /// Whether it may be a glob over lane names (`--lane kotlin-*`, verify's `--lane` and `--skip`).
  var mayBeGlob: Bool

  init(_ text: String, origin: String?, mayBeGlob: Bool = false) {
    self.text = text
    self.origin = origin
    self.mayBeGlob = mayBeGlob
  }
}

/// The one check of the lane names a command line gives, for every command
/// that takes them, before the command runs: each must name a lane of the
/// manifest (or, for the commands that read the history, one the history has
/// recorded: a lane since renamed or removed, whose runs are still worth
/// reading). Anything else is a typo, so it is a usage error in one wording
/// (`LaneSelector.unknown`) naming the lane, the nearest one and the lanes there
/// are, rather than an empty answer or a run of nothing.
enum KnownLanes {
  static func check(_ words: [LaneWord], root: URL, environment: [String: String], orHistory: Bool,
                            command: String) throws(UsageError) {
    // A manifest that does not load is the command's to report (or, for the
    // history's readers, must not keep anyone from their history).
    guard !words.isEmpty, let manifest = try? TreeManifest.load(root: root).manifest else { return }
    let names = manifest.lanes.map(\.name)
    for word in words {
      let found = word.mayBeGlob ? !LaneSelector.matches(word.text, in: names).isEmpty : names.contains(word.text)
      if found || (orHistory && recorded(word.text, root: root, environment: environment)) { continue }
      throw UsageError(message: LaneSelector.unknown(word.text, origin: word.origin, glob: word.mayBeGlob, manifestPath: manifest.path,
                                                     names: names, orHistory: orHistory), command: command)
    }
  }

  /// Whether the tree's history holds a run in which `lane` took part.
  static func recorded(_ lane: String, root: URL, environment: [String: String]) -> Bool {
    guard let path = HistoryStore.defaultPath(root: root, environment: environment), FileManager.default.fileExists(atPath: path),
          let store = try? HistoryStore(path: path, readOnly: true),
          let runs = try? store.recentRuns(limit: 1, lane: lane) else { return false }
    return !runs.isEmpty
  }
}
