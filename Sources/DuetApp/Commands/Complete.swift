import Foundation
import DuetCommandLine
import DuetSupport

/// `duet __complete lanes|tags|refs [--root DIR]`: the lane names or the tags of
/// the tree's manifest, or the git refs of its repository, one a line, for the
/// shell completions to offer. Hidden from help; silent on any error (no tree, a
/// broken manifest, no git), since a completion must never print noise.
enum CompleteCommand: TreeCommand {
  static let spec = CommandSpec(
    name: "__complete",
    summary: "the words a shell completion offers (lanes, tags: the manifest's; refs: git's)",
    usage: "duet __complete lanes|tags|refs [--root DIR]",
    options: [root.spec],
    positionals: [.words(["lanes", "tags", "refs"])]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    guard let kind = CompletionWords(rawValue: arguments.positionals.first ?? "") else {
      throw UsageError(message: "__complete offers: lanes, tags, refs", command: "__complete")
    }
    guard let root = try? treeRoot(arguments), let words = completionWords(kind, root: root, environment: arguments.invocation.environment) else { return ExitCode.failed }
    for word in words { console.out("\(word)") }
    return ExitCode.pass
  }
}
