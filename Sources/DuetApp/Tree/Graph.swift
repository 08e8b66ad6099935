import DuetModel
import DuetSupport
import Foundation

/// `duet graph`: the lane DAG as Graphviz DOT or a Mermaid flowchart.
struct GraphRequest: Sendable {
  var root: URL
  /// `dot` or `mermaid` (`GraphRequest.formats`).
  var format: String
  /// The formats `graph --format` takes, the default first.
  static let formats = GraphRender.Format.allCases.map(\.rawValue)
  /// A format `graph` does not draw is a usage error, said before the tree is looked for.
  static func checkFormat(_ name: String) throws(UsageError) {
    guard GraphRender.Format(rawValue: name) == nil else { return }
    throw UsageError(message: "--format must be dot or mermaid, got '\(name)'\(Suggestion.hint(for: name, in: formats))", command: "graph")
  }

}

/// Text duet generates whole (a graph, a schema), printed as it is.
struct GeneratedText: CommandResponse {
  var text: String
  var exitCode: Int32 { ExitCode.pass }
  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    printout.raw(text)
    return printout
  }
}

/// Throws `UsageError` for a format it does not draw, before the manifest is read, and `ManifestError`.
func graph(_ request: GraphRequest) throws -> GeneratedText {
  try GraphRequest.checkFormat(request.format)
  let format = GraphRender.Format(rawValue: request.format) ?? .dot
  let manifest = try TreeManifest.load(root: request.root).manifest
  return GeneratedText(text: GraphRender.render(manifest.graph, format: format))
}

/// `duet schema manifest`: the JSON Schema of lanes/manifest.yaml, with every built-in this duet knows.
func manifestSchema() -> GeneratedText {
  GeneratedText(text: ManifestSchema.text(builtins: BuiltinSet.standard.vocabulary))
}
