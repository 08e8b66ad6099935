import DuetSupport

/// One option a command accepts; `value` names its argument (`N`, `DIR`) or is nil for a flag.
package struct OptionSpec: Sendable {
  package var name: String
  package var value: String?
  var help: String
  package var repeatable: Bool
  /// What the value is, for completions; nil infers it from `value` (see `completion`).
  var completes: ValueKind?
  /// A one-letter spelling (`-j`), which takes its value as the next word or attached (`-j4`).
  var short: String?
  /// A flag that may carry a value after `=` (`--timings=PATH`), never as the next word.
  package var inlineValue: Bool
  /// A lane option whose value may be a glob over lane names (verify's `--lane kotlin-*`).
  package var takesGlob: Bool
  /// What the parse checks of the values given (a number, a duration), set by
  /// the option's key (`Option.converted`); nil takes any text.
  package var check: (@Sendable (_ values: [String], _ command: String) throws(UsageError) -> Void)?

  package init(name: String, value: String? = nil, help: String, repeatable: Bool = false, completes: ValueKind? = nil, short: String? = nil,
               inlineValue: Bool = false, takesGlob: Bool = false) {
    self.name = name
    self.value = value
    self.help = help
    self.repeatable = repeatable
    self.completes = completes
    self.short = short
    self.inlineValue = inlineValue
    self.takesGlob = takesGlob
  }

  /// `-j, --jobs`, or the name alone.
  var spelled: String { short.map { "\($0), \(name)" } ?? name }

  /// What a shell should offer for the value: explicit, else `DIR` is a folder,
  /// `FILE` a file, and `--lane` or `LANE` a lane of the manifest.
  package var completion: ValueKind {
    if let completes { return completes }
    guard let value else { return .none }
    if name == "--lane" || value == "LANE" { return .lanes }
    if value == "DIR" { return .directories }
    if value == "FILE" { return .files }
    return .none
  }
}

/// What a word on the command line stands for, so completions can offer it.
package enum ValueKind: Equatable, Sendable {
  /// Free text (a number, a duration): nothing to offer.
  case none
  /// A lane name from the tree's manifest (`duet __complete lanes`).
  case lanes
  /// A tag of the tree's lanes (`duet __complete tags`).
  case tags
  /// A git ref of the tree's repository (`duet __complete refs`).
  case refs
  case directories
  case files
  /// One of a fixed set of words.
  case words([String])
  /// A duet command name.
  case commands
}

/// Rows of two columns that a command's help and man page list after its
/// options, written as one literal in the order shown: its exit codes
/// (`[0: "printed", 2: "a usage error"]`, code and meaning) and its examples
/// (`["duet logs kotlin": "the kotlin lane's log"]`, command line and what it
/// does). Data, one table per command, so the commands share no code to list them.
package struct HelpTable<Key: Sendable>: ExpressibleByDictionaryLiteral, Sendable {
  var rows: [(key: Key, text: String)]

  package init(dictionaryLiteral elements: (Key, String)...) { rows = elements.map { (key: $0.0, text: $0.1) } }

  var isEmpty: Bool { rows.isEmpty }
}

/// A command's name, one-line summary and options: enough for `--help`, the man
/// page, the shell completions and "did you mean" on a mistyped option. Everything
/// a user reads about a command is generated from this one value.
package struct CommandSpec: Sendable {
  package var name: String
  package var summary: String
  var usage: String
  package var options: [OptionSpec]
  package var details: String
  /// What each positional word is; the last kind repeats for a command that takes more.
  package var positionals: [ValueKind]
  package var exitCodes: HelpTable<Int32>
  package var examples: HelpTable<String>

  package init(name: String, summary: String, usage: String, options: [OptionSpec], details: String = "", positionals: [ValueKind] = [],
               exitCodes: HelpTable<Int32> = [:], examples: HelpTable<String> = [:]) {
    self.name = name
    self.summary = summary
    self.usage = usage
    self.options = options
    self.details = details
    self.positionals = positionals
    self.exitCodes = exitCodes
    self.examples = examples
  }

  package static let rootOption = OptionSpec(name: "--root", value: "DIR", help: "the tree root (default: the nearest folder up with lanes/manifest.yaml or parity/manifest.yaml)")
  package static let jsonOption = OptionSpec(name: "--json", value: nil, help: "print the result as JSON (schemaVersion 2)")
  static let helpOption = OptionSpec(name: "--help", value: nil, help: "show this help")
  /// Taken by every command, anywhere on the line (`ColorChoice`): listed with
  /// each, so help and completions say what duet accepts (issue 53, item 5).
  static let colorOption = OptionSpec(name: "--color", value: "WHEN",
                                      help: "auto (colour on a terminal unless NO_COLOR is set), always or never",
                                      completes: .words(ColorChoice.allCases.map(\.rawValue)))

  /// The options as listed: the command's own, then `--color` and `--help`.
  var listedOptions: [OptionSpec] { options + [Self.colorOption, Self.helpOption] }

  package var help: String {
    var lines = ["usage: \(usage)", "", summary]
    if !details.isEmpty { lines += ["", details] }
    lines += ["", "options:"]
    let all = listedOptions
    let width = all.map { $0.spelled.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0
    for option in all {
      let left = option.spelled + (option.value.map { " " + $0 } ?? "")
      lines.append("  " + left.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + option.help)
    }
    if !exitCodes.isEmpty {
      lines += ["", "exit codes:"]
      let codeWidth = exitCodes.rows.map { String($0.key).count }.max() ?? 0
      for (code, meaning) in exitCodes.rows {
        lines.append("  " + String(code).padding(toLength: codeWidth, withPad: " ", startingAt: 0) + "  " + meaning)
      }
    }
    if !examples.isEmpty {
      lines += ["", "examples:"]
      for (index, (command, what)) in examples.rows.enumerated() {
        if index > 0 { lines.append("") }
        lines += ["  # " + what, "  " + command]
      }
    }
    return lines.joined(separator: "\n")
  }
}

