import DuetMocks
import DuetModel
import DuetOutput
import DuetSupport
import Foundation

/// `duet mocks`: imprint each generated mock with its fingerprints, or (`check`) say which drifted.
struct MocksRequest: Sendable {
  var root: URL
  /// The invocation's environment, which a mock generator runs with.
  var environment: [String: String]
  var check = false
  /// `--accept-body`: keep a body edited by hand and imprint it.
  var acceptBody = false
}

enum MocksResponse: CommandResponse {
  case checked(MockCheckReport)
  case imprinted(MockImprintReport)

  var exitCode: Int32 {
    switch self {
    case .checked(let report): return report.exitCode
    case .imprinted(let report): return report.exitCode
    }
  }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    switch self {
    case .checked(let report):
      if format.json { printout.json(ReportJSON.text(MockCheckJSON(report))); return printout }
      printout.diagnostics(report.errors.map(\.diagnostic))
      for line in report.lines { printout.out(line) }
    case .imprinted(let report):
      if format.json { printout.json(ReportJSON.text(MockImprintJSON(report))); return printout }
      printout.diagnostics(report.errors.map(\.diagnostic))
      for refusal in report.refused { printout.err(refusal.line) }
      for line in report.lines { printout.out(line) }
    }
    return printout
  }
}

/// Throws `ManifestError` for the tree's manifest.
func mocks(_ request: MocksRequest) throws -> MocksResponse {
  let manifest = try TreeManifest.load(root: request.root).manifest
  if request.check { return .checked(MockCheck.run(manifest, root: request.root)) }
  let options = MockImprint.Options(acceptBody: request.acceptBody, generator: MockGenerator.shell(environment: request.environment))
  return .imprinted(MockImprint.run(manifest, root: request.root, options: options))
}
