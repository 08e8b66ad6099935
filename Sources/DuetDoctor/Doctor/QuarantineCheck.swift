import Foundation
import DuetModel
import DuetSupport
import DuetTestReports

/// `lanes/quarantine.yaml` as verify will read it. A file with errors
/// quarantines nothing (verify only warns, and every failure fails), so a
/// team that relies on its entries learns it here as a problem, at the
/// error's `file:line:column`, rather than from a red run (issue 50, item 5).
enum QuarantineCheck {
  static func check(root: URL, manifest: Manifest, today: Date = Date(), into report: inout DoctorReport) {
    let path = QuarantineFile.defaultPath
    guard FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) else { return }
    do {
      let file = try QuarantineFile.load(root: root, lanes: Set(manifest.lanes.map(\.name)))
      let expired = QuarantineRule(entries: file.entries, today: QuarantineDate(today)).expired.count
      report.add("quarantine", "\(path): \(file.entries.count) entr\(file.entries.count == 1 ? "y" : "ies")"
                 + (expired == 0 ? "" : ", \(expired) past its 'until' day (counting for nothing)"))
    } catch {
      report.add("quarantine", "\(path): \(Doctor.errorCount(error.diagnostics)); verify quarantines nothing while it has errors")
      report.problem(Doctor.firstError(error.diagnostics))
    }
  }
}
