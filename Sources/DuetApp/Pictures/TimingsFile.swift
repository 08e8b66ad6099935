import DuetRun
import DuetSupport
import Foundation
import DuetPages
import DuetHistory

/// `--timings[=PATH]`: the run's timings page, written once the run is recorded.
enum TimingsFile {
  /// The page's place when `--timings` names none, relative to the root.
  static let defaultPath = ".duet/timings.html"

  /// The finished run laid out in time, from the rows it records.
  static func timeline(_ rows: (run: RunRow, steps: [StepRow], needs: [String: [String]])) -> RunTimeline {
    RunTimeline(run: rows.run, steps: rows.steps, needs: rows.needs)
  }

  /// Writes the page to `path` (absolute); returns whether it was written (a
  /// page that cannot be written is a warning, never a failed run).
  static func save(_ timeline: RunTimeline, path: String, observer: VerifyObserver) -> Bool {
    do {
      try AtomicFile.write(Data(TimingsPage.html(timeline).utf8), toAbsolute: path)
      return true
    } catch {
      observer.warning("--timings: cannot write \(path): \(error)")
      return false
    }
  }
}
