import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// A lane name given to `duet logs` or `duet history --lane`: one the manifest
/// names, or one the history has recorded (a lane since renamed or removed, whose
/// runs are still worth reading). Anything else is a typo, so it is a usage error
/// naming the nearest lane rather than an empty answer.
enum KnownLane {
  static func check(_ lane: String, root: URL, environment: [String: String], command: String) throws {
    // A manifest that does not load must not keep anyone from their history.
    guard let manifest = try? loadManifest(root: root) else { return }
    let names = manifest.lanes.map(\.name)
    if names.contains(lane) { return }
    if let path = HistoryStore.defaultPath(root: root, environment: environment), FileManager.default.fileExists(atPath: path),
       let store = try? HistoryStore(path: path, readOnly: true),
       let runs = try? store.recentRuns(limit: 1, lane: lane), !runs.isEmpty {
      return
    }
    let list = names.isEmpty ? "it has none" : "its lanes: \(names.joined(separator: ", "))"
    throw UsageError(message: "no lane '\(lane)' in \(manifest.path) or the history\(Suggestion.hint(for: lane, in: names)) (\(list))", command: command)
  }
}
