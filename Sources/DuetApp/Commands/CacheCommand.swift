import Foundation
import DuetCommandLine
import DuetSupport

/// `duet cache stats|prune|verify`: the local store of outputs and logs.
enum CacheCommand: TreeCommand, JSONCommand {
  /// In bytes.
  static let maxSize = Option<Self, Int?>.converted(
    OptionSpec(name: "--max-size", value: "SIZE", help: "with prune: the most the store may hold, e.g. 500M or 2G (least recently used blobs go first)")) { text, command throws(UsageError) in
      guard let bytes = ByteCount.parse(text) else {
        throw UsageError(message: "--max-size needs a size such as 500M or 2G, got '\(text)'", command: command)
      }
      return bytes
    }

  static let spec = CommandSpec(
    name: "cache",
    summary: "the local store of lanes' outputs and logs: 'stats', 'prune --max-size SIZE', 'verify'",
    usage: "duet cache stats [--json] | duet cache prune --max-size SIZE [--json] | duet cache verify [--json]",
    options: [maxSize.spec, json.spec, root.spec],
    positionals: [.words(["stats", "prune", "verify"])],
    exitCodes: [0: "listed, pruned, or every blob verified", 1: "verify found damaged blobs (they were removed), or .duet is not a real folder",
                2: "a usage error"],
    examples: ["duet cache prune --max-size 2G": "keep at most 2 GiB of outputs, dropping the least recently used",
               "duet cache verify": "hash every stored blob again and remove any that is damaged"]
  )

  static let maxPositionals = 1

  /// `duet cache`'s command line: the action, with prune's size in bytes.
  struct Options {
    var root: String?
    var json: Bool
    var action: CacheRequest.Action
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    let words = ["stats", "prune", "verify"]
    let maxBytes = try line[maxSize]
    let action: CacheRequest.Action
    switch line.positionals.first {
    case "stats"?, nil: action = .stats
    case "verify"?: action = .verify
    case "prune"?:
      guard let maxBytes else { throw UsageError(message: "prune needs --max-size SIZE, e.g. --max-size 2G", command: "cache") }
      action = .prune(maxBytes: maxBytes)
    case let other?:
      throw UsageError(message: "unknown subcommand '\(other)'\(Suggestion.hint(for: other, in: words)) (cache takes stats, prune or verify)", command: "cache")
    }
    if maxBytes != nil, action == .stats || action == .verify {
      throw UsageError(message: "--max-size goes with prune", command: "cache")
    }
    return Options(root: try line[root], json: try line[json], action: action)
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.show(try cache(CacheRequest(root: try call.treeRoot(options.root), action: options.action)), json: options.json)
  }
}
