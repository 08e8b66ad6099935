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

  /// `duet __complete`'s command line: which words to offer.
  struct Options {
    var root: String?
    var kind: CompletionWords
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    guard let kind = CompletionWords(rawValue: line.positionals.first ?? "") else {
      throw UsageError(message: "__complete offers: lanes, tags, refs", command: "__complete")
    }
    return Options(root: try line[root], kind: kind)
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    guard let root = try? call.treeRoot(options.root), let words = completionWords(options.kind, root: root, environment: call.environment) else { return ExitCode.failed }
    for word in words { call.console.out("\(word)") }
    return ExitCode.pass
  }
}
