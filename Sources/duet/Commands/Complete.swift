import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// `duet __complete lanes [--root DIR]`: the lane names of the tree's manifest, one
/// a line, for the shell completions to offer. Hidden from help; silent on any
/// error (no tree, a broken manifest), since a completion must never print noise.
enum CompleteCommand: Command {
  static let spec = CommandSpec(
    name: "__complete",
    summary: "the words a shell completion offers (lanes: the manifest's lane names)",
    usage: "duet __complete lanes [--root DIR]",
    options: [CommandSpec.rootOption],
    positionals: [.words(["lanes"])]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.first == "lanes" else {
      throw UsageError(message: "__complete offers: lanes", command: "__complete")
    }
    guard let root = try? treeRoot(arguments), let manifest = try? loadManifest(root: root) else {
      return ExitCode.failed
    }
    for lane in manifest.lanes { console.out(lane.name) }
    return ExitCode.pass
  }
}
