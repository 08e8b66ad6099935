import DuetCI
import DuetModel
import DuetRun
import DuetSupport
import Foundation
import DuetHistory

/// What `duet workflow github|gitlab` reads from the tree besides the manifest:
/// the lanes' last recorded durations (for grouping lanes into jobs) and the
/// toolchains the build needs on every runner.
enum WorkflowInputs {
  /// The last recorded duration of each lane in the history store (`$DUET_HISTORY`,
  /// else `.duet/history.sqlite`); empty when there is no store, with the reason
  /// a store that exists could not be read.
  static func durations(root: URL, manifest: Manifest, environment: [String: String]) -> (durations: [String: Double], problem: String?) {
    guard let path = HistoryStore.defaultPath(root: root, environment: environment), FileManager.default.fileExists(atPath: path) else {
      return ([:], nil)
    }
    do {
      return (try HistoryStore(path: path, readOnly: true).lastDurations(lanes: manifest.lanes.map(\.name)), nil)
    } catch {
      return ([:], "cannot read the history store \(path) (\(error)); lanes are grouped without durations")
    }
  }

  /// The JDK and Gradle caches the tree at `root` needs (see `CIToolchains`).
  static func toolchains(root: URL) -> CIToolchains { CIToolchains.of(root: root) }
}
