import DuetModel
import DuetRun
import DuetSupport
import Foundation
import DuetPages
import DuetHistory

/// A recorded run read back for `duet trace`: the newest, or the one whose run
/// id or log id starts with `wanted`; nil when the store has none such. The
/// critical path follows the manifest's `needs:` when the manifest loads (a
/// run of lanes since renamed still draws, without one).
func recordedTimeline(_ store: HistoryStore, root: URL, wanted: String?) throws(HistoryError) -> RunTimeline? {
  let runs = try store.recentRuns(limit: wanted == nil ? 1 : 100_000)
  guard let run = runs.first(where: { wanted == nil || $0.id.hasPrefix(wanted!) || $0.logID.hasPrefix(wanted!) }) else { return nil }
  let steps = try store.steps(ofRuns: [run.id])
  var needs: [String: [String]] = [:]
  if let manifest = try? TreeManifest.load(root: root).manifest {
    for lane in manifest.lanes { needs[lane.name] = lane.needs }
  }
  return RunTimeline(run: run, steps: steps, needs: needs)
}

/// `duet report --html FILE`: the report's page, written atomically to `path` (absolute).
func writeReportPage(_ report: HistoryReport, to path: String, time: (Double) -> String) throws {
  try AtomicFile.write(Data(ReportPage.html(report, time: time).utf8), toAbsolute: path)
}
