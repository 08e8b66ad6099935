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

  /// `duet explain`'s command line: the lane, and the run to compare with.
  struct Options {
    var root: String?
    var lane: String
    var against: String?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    guard let lane = line.positionals.first else {
      throw UsageError(message: "explain needs a LANE, the lane whose cache miss to explain", command: "explain")
    }
    return Options(root: try line[root], lane: lane, against: try line[against])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = ExplainRequest(root: try call.treeRoot(options.root), lane: options.lane, duetVersion: duetVersion, environment: call.environment)
    request.against = options.against
    return call.console.show(try explain(request))
  }
}
