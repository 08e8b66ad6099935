import Foundation
import DuetCommandLine
import DuetSupport

/// `duet quarantine add|list|remove`: the reviewed `lanes/quarantine.yaml`.
enum QuarantineCommand: TreeCommand, JSONCommand {
  static let words = ["add", "list", "remove", "suggest"]
  static let lane = Option<Self, String?>.text(
    OptionSpec(name: "--lane", value: "LANE", help: "the lane the test belongs to; without TEST, the whole lane is quarantined (or removed)"))
  static let reason = Option<Self, String?>.text(
    OptionSpec(name: "--reason", value: "TEXT", help: "with add: why, for the reviewer (a ticket, what flips)"))
  static let until = Option<Self, String?>.text(
    OptionSpec(name: "--until", value: "YYYY-MM-DD", help: "with add: the last day the entry counts (default: 30 days from today); after it the failures fail verify again"))
    .checkingEach { text, _ throws(UsageError) in _ = try untilDay(text) }
  static let exact = Option<Self, Bool>.flag(
    OptionSpec(name: "--exact", help: "with add or remove: TEST is one name, its * and ? taken literally, not a pattern"))
  /// As a fraction, between 0% and 100%.
  static let below = Option<Self, Double?>.converted(
    OptionSpec(name: "--below", value: "PCT", help: "with suggest: suggest a release only when the 95% interval of the test's failure rate, from its passes in a row, ends below PCT (e.g. 5%; 10 passes still allow 28%)")) { text, command throws(UsageError) in
      let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
      guard let percent = Double(digits), percent > 0, percent <= 100 else {
        throw UsageError(message: "--below needs a percentage above 0 and at most 100, such as 5%, got '\(text)'", command: command)
      }
      return percent / 100
    }
  static let spec = CommandSpec(
    name: "quarantine",
    summary: "tests (or lanes) whose failures do not fail verify until a day, kept in lanes/quarantine.yaml: 'add', 'list', 'remove', 'suggest'",
    usage: "duet quarantine add [[--exact] TEST] --lane LANE --reason TEXT [--until YYYY-MM-DD] | duet quarantine list [--json] | duet quarantine remove [[--exact] TEST] --lane LANE | duet quarantine suggest [--below PCT] [--json]",
    options: [lane.spec, reason.spec, until.spec, exact.spec, below.spec, json.spec, root.spec],
    positionals: [.words(words), .none],
    exitCodes: [0: "added (a day already past or a pattern that takes every test is added with a warning), listed, removed or suggested",
                1: "remove found no such entry, or the file could not be written",
                2: "a usage error, an unknown lane, an empty TEST, a day that is not a real date, a quarantine file with errors, or an entry that would not read back"],
    examples: ["duet quarantine add 'app.CartTest.addsItem' --lane unit --reason 'flips on CI, #123'": "let that test's failures pass the unit lane for 30 days (TEST is classname.name; * and ? are globs)",
               "duet quarantine add --lane ui --reason 'emulator image broken' --until 2027-01-15": "keep the whole ui lane's failure from failing verify through 15 January 2027 ('remove --lane ui' ends it)"]
  )
  static let maxPositionals = 2

  /// `duet quarantine`'s command line: the action with what it takes, and suggest's bound.
  struct Options {
    var root: String?
    var json: Bool
    var action: QuarantineRequest.Action
    /// `--below PCT` as a fraction (suggest only).
    var releaseBelow: Double?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    let releaseBelow = try line[below]
    let action = try action(line)
    if releaseBelow != nil && action != .suggest { throw UsageError(message: "--below goes with suggest", command: "quarantine") }
    return Options(root: try line[root], json: try line[json], action: action, releaseBelow: releaseBelow)
  }

  /// The subcommand and its TEST, with the options each needs and only those.
  static func action(_ line: ParsedArguments<Self>) throws -> QuarantineRequest.Action {
    let test = line.positionals.dropFirst().first
    let action: QuarantineRequest.Action
    switch line.positionals.first {
    case "list"?, nil:
      guard test == nil else { throw UsageError(message: "list takes no TEST", command: "quarantine") }
      action = .list
    case "add"?:
      guard let lane = try line[lane] else { throw UsageError(message: "add needs --lane LANE", command: "quarantine") }
      guard let reason = try line[reason] else { throw UsageError(message: "add needs --reason TEXT (why, for the reviewer)", command: "quarantine") }
      action = .add(test: test, exact: try line[exact], lane: lane, reason: reason, until: try line[until])
    case "suggest"?:
      guard test == nil else { throw UsageError(message: "suggest takes no TEST", command: "quarantine") }
      action = .suggest
    case "remove"?:
      guard let lane = try line[lane] else { throw UsageError(message: "remove needs --lane LANE", command: "quarantine") }
      action = .remove(test: test, exact: try line[exact], lane: lane)
    case let other?:
      throw UsageError(message: "unknown subcommand '\(other)'\(Suggestion.hint(for: other, in: words)) (quarantine takes add, list, remove or suggest)", command: "quarantine")
    }
    if case .add = action {} else if try line[reason.given] || line[until.given] {
      throw UsageError(message: "--reason and --until go with add", command: "quarantine")
    }
    if try line[exact], test == nil {
      throw UsageError(message: "--exact needs a TEST (with add or remove), the one name to take literally", command: "quarantine")
    }
    return action
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = QuarantineRequest(root: try call.treeRoot(options.root), action: options.action, environment: call.environment)
    request.releaseBelow = options.releaseBelow
    return call.console.show(try quarantine(request), json: options.json)
  }
}
