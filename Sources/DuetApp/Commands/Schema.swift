import Foundation
import DuetCommandLine
import DuetSupport


/// `duet schema manifest`: the JSON Schema of lanes/manifest.yaml, for editors.
enum SchemaCommand: Command {
  static let spec = CommandSpec(
    name: "schema",
    summary: "print the JSON Schema of lanes/manifest.yaml ('schema manifest'), for editors with the YAML language server",
    usage: "duet schema manifest",
    options: [],
    details: "put '# yaml-language-server: $schema=<path or URL of the schema>' on the manifest's first line",
    positionals: [.words(["manifest"])],
    exitCodes: [0: "printed", 2: "no schema named, or one duet does not know"],
    examples: ["duet schema manifest > lanes/manifest.schema.json": "a copy beside the manifest, for its yaml-language-server line"]
  )
  static let maxPositionals = 1

  /// `duet schema`'s command line: the schema, one duet knows (`manifest`).
  struct Options {}

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    guard let name = line.positionals.first else {
      throw UsageError(message: "schema needs a name: duet schema manifest", command: "schema")
    }
    guard name == "manifest" else {
      throw UsageError(message: "unknown schema '\(name)'\(Suggestion.hint(for: name, in: ["manifest"])) (schema knows manifest)", command: "schema")
    }
    return Options()
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.show(manifestSchema())
  }
}
