import Foundation
import DuetCommandLine
import DuetSupport

/// `duet cache stats|prune|verify`: the local store of outputs and logs.
enum CacheCommand: TreeCommand, JSONCommand {
  static let maxSize = Option<Self, String?>.text(
    OptionSpec(name: "--max-size", value: "SIZE", help: "with prune: the most the store may hold, e.g. 500M or 2G (least recently used blobs go first)"))

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

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let words = ["stats", "prune", "verify"]
    let action: CacheRequest.Action
    let maxSize = try arguments[Self.maxSize]
    switch arguments.positionals.first {
    case "stats"?, nil: action = .stats
    case "verify"?: action = .verify
    case "prune"?:
      guard let text = maxSize else {
        throw UsageError(message: "prune needs --max-size SIZE, e.g. --max-size 2G", command: "cache")
      }
      guard let bytes = ByteCount.parse(text) else {
        throw UsageError(message: "--max-size needs a size such as 500M or 2G, got '\(text)'", command: "cache")
      }
      action = .prune(maxBytes: bytes)
    case let other?:
      throw UsageError(message: "unknown subcommand '\(other)'\(Suggestion.hint(for: other, in: words)) (cache takes stats, prune or verify)", command: "cache")
    }
    if let maxSize, action != .prune(maxBytes: ByteCount.parse(maxSize) ?? -1) {
      throw UsageError(message: "--max-size goes with prune", command: "cache")
    }
    return console.show(try cache(CacheRequest(root: try treeRoot(arguments), action: action)), json: try arguments[json])
  }
}
