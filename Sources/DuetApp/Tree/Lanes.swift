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
      let rows = report.lanes.map { lane -> [TerminalLine] in
        [
          "\(lane.name)",
          lane.kind == "builtin" ? "built-in" : "sh",
          lane.needs.isEmpty ? "-" : "\(lane.needs.joined(separator: ","))",
          "\(lane.timeoutSeconds.map(DurationText.formatTimeout) ?? "default")",
          "\(lane.retries)",
          "\(lane.command)",
        ]
      }
      printout.table(TextTable(header: ["lane", "step", "needs", "timeout", "retries", "command"], rows: rows), width: format.width)
    }
    let outside = report.outside
    if outside.isEmpty {
      printout.out("outside the manifest: none (every module is covered by a lane)")
    } else {
      printout.out("outside the manifest (\(outside.count) module(s) no lane covers):")
      printout.table(TextTable(header: nil, rows: outside.map { ["\($0.path)", "\($0.foundBy.joined(separator: ", "))"] }), width: format.width)
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
