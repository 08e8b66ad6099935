import DuetRun
import DuetSupport
import Foundation
import DuetRunReports

/// The files a CI run writes besides the text: the JUnit XML and GitHub's step summary.
enum CIReports {
  /// Writes both; returns the reports that could not be written (a missing
  /// JUnit file fails the run; the summary only warns), and apart those the
  /// machine kept from being written (no descriptor or memory: an error, exit 3).
  static func save(_ verdict: RunVerdict, _ reports: VerifyReports, started: Date, observer: VerifyObserver) -> (errors: [String], shortages: [String]) {
    var errors: [String] = []
    var shortages: [String] = []
    if let path = reports.junitPath {
      let xml = JUnitReport.xml(verdict, timestamp: ISO8601DateFormatter().string(from: started))
      do {
        try AtomicFile.write(Data(xml.utf8), toAbsolute: path)
      } catch {
        observer.error("--junit: \(error)")
        // Out of descriptors or memory is the machine's error, not a lane's failure (issue 52).
        if !MachineShortage.caused(error) { errors.append("--junit: cannot write \(path)") } else { shortages.append("--junit: \(error)") }
      }
    }
    if let path = reports.summaryPath {
      let existing = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
      var reported = verdict
      reported.reportErrors += errors
      let markdown = StepSummary.markdown(reported, limit: max(0, StepSummary.defaultLimit - existing))
      if !markdown.isEmpty && !append(Data(markdown.utf8), to: path) {
        observer.warning("cannot append the summary to $GITHUB_STEP_SUMMARY (\(path))")
      }
    }
    return (errors, shortages)
  }

  /// Appends with `O_APPEND`, so steps that share the summary file never
  /// overwrite each other; by the rule of `AtomicFile.append`.
  static func append(_ data: Data, to path: String) -> Bool {
    (try? AtomicFile.append(data, toAbsolute: path)) != nil
  }
}
