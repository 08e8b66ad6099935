import DuetAdopt
import DuetModel
import DuetDoctor
import DuetOutput
import DuetSupport
import Foundation

/// `duet doctor`: what this machine and tree give the lanes.
struct DoctorRequest: Sendable {
  /// The tree, or the working folder when no tree was found (`foundBy` nil):
  /// no tree is a problem to report beside the toolchains.
  var root: URL
  /// What marked the tree (`--root`, `lanes/manifest.yaml`, ...); nil for no tree.
  var foundBy: String?
  /// The invocation's environment: the `PATH` the lanes' programs are looked for on, `DUET_HISTORY`.
  var environment: [String: String]

  /// The request for the tree around `workingDirectory` (or `root` as given),
  /// and, when there is none, the working folder itself.
  static func find(workingDirectory: URL, root override: String?, environment: [String: String]) throws -> DoctorRequest {
    do {
      let root = try TreeManifest.root(from: workingDirectory, override: override)
      let foundBy = override != nil
        ? "--root"
        : TreeManifest.treeMarkers.first { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) } ?? "--root"
      return DoctorRequest(root: root, foundBy: foundBy, environment: environment)
    } catch is TreeNotFound {
      return DoctorRequest(root: workingDirectory, foundBy: nil, environment: environment)
    }
  }
}

struct DoctorResponse: CommandResponse {
  var report: DoctorReport
  var exitCode: Int32 { report.exitCode }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json {
      printout.json(report.json)
      return printout
    }
    let text = report.text(maxWidth: format.width)
    text.lines.forEach { printout.out($0) }
    printout.out(text.verdict, paint: text.passed ? "32;1" : "31;1")
    text.problems.forEach { printout.out($0) }
    return printout
  }
}

func doctor(_ request: DoctorRequest) -> DoctorResponse {
  let options = Doctor.Options(root: request.root, foundBy: request.foundBy, environment: request.environment,
                               builtins: BuiltinSet.standard.vocabulary)
  return DoctorResponse(report: Doctor.run(options))
}
