import DuetAdopt
import DuetModel
import DuetOutput
import DuetSupport
import Foundation

/// `duet lanes`: the manifest's lanes in run order and the modules no lane covers.
struct LanesRequest: Sendable {
  var root: URL
  init(root: URL) { self.root = root }
}

struct LanesResponse: CommandResponse {
  var report: LanesJSON
  /// For derived lanes, what `duet init` would add to them (a starting theme
  /// test and its lane), so the derived set and init's differ by nothing unsaid.
  var initAdds: String?
  var exitCode: Int32 { ExitCode.pass }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json {
      printout.json(ReportJSON.text(report))
      return printout
    }
    if report.derived { printout.out(DerivedLanes.notice(report.manifest)) }
    if let initAdds { printout.out("\(initAdds)") }
    printout.out("\(report.manifest): \(report.lanes.count) \(report.derived ? "derived lane(s)" : "lane(s)"), in run order")
    if !report.lanes.isEmpty {
      printout.table(TextTable(header: LanesJSON.laneHeader, rows: report.laneRows), width: format.width)
    }
    let outside = report.outsideRows
    if outside.isEmpty {
      printout.out("outside the manifest: none (every module is covered by a lane)")
    } else {
      printout.out("outside the manifest (\(outside.count) module(s) no lane covers):")
      printout.table(TextTable(header: nil, rows: outside), width: format.width)
    }
    return printout
  }
}

/// Throws `ManifestError` for the tree's manifest.
func lanes(_ request: LanesRequest) throws -> LanesResponse {
  let tree = try TreeManifest.load(root: request.root)
  return LanesResponse(report: LanesJSON(tree, modules: ModuleDiscovery.discover(root: request.root, manifest: tree.manifest)),
                       initAdds: tree.isDerived ? DerivedLanes.initAdds(root: request.root) : nil)
}
