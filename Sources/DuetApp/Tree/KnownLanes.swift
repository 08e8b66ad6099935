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
  /// A lookup of whether the history recorded a lane: opened once per check,
  /// at the first name the manifest lacks; nil when there is no history to read.
  typealias History = (_ lane: String) -> Bool

  /// Checks `words` against the tree's manifest (and, with `orHistory`, its
  /// history) and returns the manifest it loaded, for the command to use.
  @discardableResult
  static func check(_ words: [LaneWord], root: URL, environment: [String: String], orHistory: Bool,
                    command: String) throws(UsageError) -> TreeManifest? {
    // A manifest that does not load is the command's to report (or, for the
    // history's readers, must not keep anyone from their history).
    guard !words.isEmpty, let tree = try? TreeManifest.load(root: root) else { return nil }
    let openHistory = orHistory ? { history(root: root, environment: environment) } : nil
    try check(words, manifest: tree.manifest, openHistory: openHistory, command: command)
    return tree
  }

  /// The check against a loaded manifest; `openHistory` (for the commands that
  /// read the history) is called at most once, however many names it must answer.
  static func check(_ words: [LaneWord], manifest: Manifest, openHistory: (() -> History?)?, command: String) throws(UsageError) {
    let names = manifest.lanes.map(\.name)
    var opened: History?? = nil
    for word in words {
      let found = word.mayBeGlob ? !LaneSelector.matches(word.text, in: names).isEmpty : names.contains(word.text)
      if found { continue }
      if let openHistory {
        if opened == nil { opened = .some(openHistory()) }
        if let recorded = opened ?? nil, recorded(word.text) { continue }
      }
      throw UsageError(message: LaneSelector.unknown(word.text, origin: word.origin, glob: word.mayBeGlob, manifestPath: manifest.path,
                                                     names: names, orHistory: openHistory != nil), command: command)
    }
  }

  /// The tree's history, opened read-only, as a lookup of whether it holds a
  /// run in which a lane took part; nil when there is none or it does not open.
  static func history(root: URL, environment: [String: String]) -> History? {
    guard let path = HistoryStore.defaultPath(root: root, environment: environment), FileManager.default.fileExists(atPath: path),
          let store = try? HistoryStore(path: path, readOnly: true) else { return nil }
    return { lane in (try? store.recentRuns(limit: 1, lane: lane))?.isEmpty == false }
  }
}
