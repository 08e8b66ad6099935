import Foundation
import DuetCommandLine
import DuetSupport

/// `duet explain LANE [--against RUN]`: why this checkout misses another's pass.
enum ExplainCommand: TreeCommand {
  static let against = Option<Self, String?>.text(
    OptionSpec(name: "--against", value: "RUN", help: "compare with this recorded run (an id or log id from duet history, or a prefix), not the nearest pass"))

  static let spec = CommandSpec(
    name: "explain",
    summary: "say why a lane misses the pass another checkout or machine recorded for this commit: every part of its fingerprint that differs",
    usage: "duet explain LANE [--against RUN]",
    options: [against.spec, root.spec],
    details: "the lane is fingerprinted as verify --dry-run does it (nothing is run or recorded) and compared with the nearest pass of HEAD's commit recorded under another root: a pulled run (duet history pull), a merged store, another clone sharing the store\nan input file by its content, an env-inputs variable by a keyed hash of its value, a requires: program by the digest of its bytes (not its path)",
    positionals: [.lanes],
    exitCodes: [0: "compared (also when nothing differs)", 1: "nothing to compare with: no such pass is recorded, or the lane has no fingerprint",
                2: "a usage error: no LANE, an unknown lane, or a RUN the history does not hold with its parts"],
    examples: ["duet history pull && duet explain kotlin": "why kotlin misses the pass CI recorded for this commit",
               "duet explain kotlin --against 20261206-0915": "compare with one recorded run"]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    guard let lane = arguments.positionals.first else {
      throw UsageError(message: "explain needs a LANE, the lane whose cache miss to explain", command: "explain")
    }
    var request = ExplainRequest(root: try treeRoot(arguments), lane: lane, duetVersion: duetVersion, environment: arguments.invocation.environment)
    request.against = try arguments[against]
    return console.show(try explain(request))
  }
}
