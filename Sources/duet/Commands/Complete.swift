import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetProcess
import DuetSupport

/// `duet __complete lanes|tags|refs [--root DIR]`: the lane names or the tags of
/// the tree's manifest, or the git refs of its repository, one a line, for the
/// shell completions to offer. Hidden from help; silent on any error (no tree, a
/// broken manifest, no git), since a completion must never print noise.
enum CompleteCommand: Command {
  static let spec = CommandSpec(
    name: "__complete",
    summary: "the words a shell completion offers (lanes, tags: the manifest's; refs: git's)",
    usage: "duet __complete lanes|tags|refs [--root DIR]",
    options: [CommandSpec.rootOption],
    positionals: [.words(["lanes", "tags", "refs"])]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let kind = arguments.positionals.first ?? ""
    guard ["lanes", "tags", "refs"].contains(kind) else {
      throw UsageError(message: "__complete offers: lanes, tags, refs", command: "__complete")
    }
    guard let root = try? treeRoot(arguments) else { return ExitCode.failed }
    if kind == "refs" {
      for ref in ProcessOutput.gitRefs(in: root) { console.out(ref) }
      return ExitCode.pass
    }
    guard let manifest = try? loadManifest(root: root) else { return ExitCode.failed }
    let words = kind == "lanes" ? manifest.lanes.map(\.name) : LaneSelector.allTags(manifest.lanes)
    for word in words { console.out(word) }
    return ExitCode.pass
  }
}
