import DuetModel
import DuetTestReports
import Foundation

/// What `--watch` knows of `lanes/quarantine.yaml`: each lane's entries as
/// the last run judged by them. The quarantine is an input of a run's verdict,
/// not of any lane, so an edit to it re-judges exactly the lanes whose entries
/// it changed (added, removed, edited, or all of them when the file stops
/// reading); their last verdicts were given under the old entries.
struct QuarantineWatch {
  /// Lane name to its entries, each as one comparable line; a file that does
  /// not read is an empty quarantine, as verify applies it.
  private(set) var entries: [String: [String]]

  init(root: URL, lanes: Set<String>) {
    entries = QuarantineWatch.read(root: root, lanes: lanes)
  }

  static func read(root: URL, lanes: Set<String>) -> [String: [String]] {
    guard let file = try? QuarantineFile.load(root: root, lanes: lanes) else { return [:] }
    var byLane: [String: [String]] = [:]
    for entry in file.entries {
      byLane[entry.lane, default: []].append([entry.test ?? "", entry.reason, entry.until.description, entry.added.map(\.description) ?? ""]
        .joined(separator: "\u{0}"))
    }
    return byLane
  }

  /// Reads the file again; the lanes whose entries changed since the last reading, sorted.
  mutating func changedLanes(root: URL, lanes: Set<String>) -> [String] {
    let now = QuarantineWatch.read(root: root, lanes: lanes)
    let touched = Set(entries.keys).union(now.keys).filter { entries[$0] != now[$0] }
    entries = now
    return touched.sorted()
  }
}
