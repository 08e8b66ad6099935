import DuetApp
import DuetSupport


/// One option a command accepts; `value` names its argument (`N`, `DIR`) or is nil for a flag.
struct OptionSpec {
  var name: String
  var value: String?
  var help: String
  var repeatable = false
  /// What the value is, for completions; nil infers it from `value` (see `completion`).
  var completes: ValueKind? = nil
  /// A one-letter spelling (`-j`), which takes its value as the next word or attached (`-j4`).
  var short: String? = nil
  /// A flag that may carry a value after `=` (`--timings=PATH`), never as the next word.
  var inlineValue = false
  /// A lane option whose value may be a glob over lane names (verify's `--lane kotlin-*`).
  var takesGlob = false
  /// What the parse checks of the values given (a number, a duration), set by
  /// the option's key (`Option.converted`); nil takes any text.
  var check: (@Sendable (_ values: [String], _ command: String) throws(UsageError) -> Void)? = nil

  /// `-j, --jobs`, or the name alone.
  var spelled: String { short.map { "\($0), \(name)" } ?? name }

  /// What a shell should offer for the value: explicit, else `DIR` is a folder,
  /// `FILE` a file, and `--lane` or `LANE` a lane of the manifest.
  var completion: ValueKind {
    if let completes { return completes }
    guard let value else { return .none }
    if name == "--lane" || value == "LANE" { return .lanes }
    if value == "DIR" { return .directories }
    if value == "FILE" { return .files }
    return .none
  }
}

/// What a word on the command line stands for, so completions can offer it.
enum ValueKind: Equatable {
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
struct HelpTable<Key: Sendable>: ExpressibleByDictionaryLiteral, Sendable {
  var rows: [(key: Key, text: String)]

  init(dictionaryLiteral elements: (Key, String)...) { rows = elements.map { (key: $0.0, text: $0.1) } }

  var isEmpty: Bool { rows.isEmpty }
}

/// A command's name, one-line summary and options: enough for `--help`, the man
/// page, the shell completions and "did you mean" on a mistyped option. Everything
/// a user reads about a command is generated from this one value.
struct CommandSpec {
  var name: String
  var summary: String
  var usage: String
  var options: [OptionSpec]
  var details: String = ""
  /// What each positional word is; the last kind repeats for a command that takes more.
  var positionals: [ValueKind] = []
  var exitCodes: HelpTable<Int32> = [:]
  var examples: HelpTable<String> = [:]

  static let rootOption = OptionSpec(name: "--root", value: "DIR", help: "the tree root (default: the nearest folder up with lanes/manifest.yaml or parity/manifest.yaml)")
  static let jsonOption = OptionSpec(name: "--json", value: nil, help: "print the result as JSON (schemaVersion 2)")
  static let helpOption = OptionSpec(name: "--help", value: nil, help: "show this help")
  /// Taken by every command, anywhere on the line (`ColorChoice`): listed with
  /// each, so help and completions say what duet accepts (issue 53, item 5).
  static let colorOption = OptionSpec(name: "--color", value: "WHEN",
                                      help: "auto (colour on a terminal unless NO_COLOR is set), always or never",
                                      completes: .words(ColorChoice.allCases.map(\.rawValue)))

  /// The options as listed: the command's own, then `--color` and `--help`.
  var listedOptions: [OptionSpec] { options + [Self.colorOption, Self.helpOption] }

  var help: String {
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

/// The options and positional words of one command line, checked against its
/// command's spec. Options are read through the command's keys (`arguments[jobs]`).
struct ParsedArguments<Owner: Command> {
  private var flags: Set<String> = []
  private var values: [String: [String]] = [:]
  private(set) var positionals: [String] = []
  var wantsHelp = false
  /// Where the words came from: the working folder and environment the command
  /// must use instead of this process's (an in-process call has its own).
  var invocation: Invocation

  init(invocation: Invocation) { self.invocation = invocation }

  /// The option's value as its key reads it; a usage error for a bad value.
  subscript<Value>(_ option: Option<Owner, Value>) -> Value {
    get throws(UsageError) {
      let name = option.spec.name
      // A key its command does not list would silently read nothing.
      assert(Owner.spec.options.contains { $0.name == name }, "\(Owner.spec.name) reads \(name) but does not list it")
      return try option.read(flags.contains(name) || values[name] != nil, values[name] ?? [], Owner.spec.name)
    }
  }

  /// `-j4` as `-j` with the value `4`; any other word as it is, with no value.
  static func splitShort(_ word: String, spec: CommandSpec) -> (String, String?) {
    guard !word.hasPrefix("--") else { return (word, nil) }
    for option in spec.options where option.value != nil {
      guard let short = option.short, word.hasPrefix(short), word.count > short.count else { continue }
      let value = String(word.dropFirst(short.count))
      return (short, value.hasPrefix("=") ? String(value.dropFirst()) : value)
    }
    return (word, nil)
  }

  static func parse(_ arguments: [String], invocation: Invocation) throws -> ParsedArguments {
    let spec = Owner.spec
    let maxPositionals = Owner.maxPositionals
    var parsed = ParsedArguments(invocation: invocation)
    var index = 0
    let names = spec.listedOptions.map(\.name)
    while index < arguments.count {
      let word = arguments[index]
      index += 1
      if word == "--help" || word == "-h" {
        parsed.wantsHelp = true
        continue
      }
      if word == "--" {
        parsed.positionals.append(contentsOf: arguments[index...])
        break
      }
      guard word.hasPrefix("-"), word != "-" else {
        parsed.positionals.append(word)
        continue
      }
      var (name, inline) = splitShort(word, spec: spec)
      if inline == nil, let equals = word.firstIndex(of: "=") {
        name = String(word[..<equals])
        inline = String(word[word.index(after: equals)...])
      }
      guard let option = spec.options.first(where: { $0.name == name || ($0.short != nil && $0.short == name) }) else {
        throw UsageError(message: "unknown option '\(name)'\(Suggestion.hint(for: name, in: names))", command: spec.name)
      }
      name = option.name
      // The last of two values silently winning hides a mistake in a script.
      if !option.repeatable && (parsed.flags.contains(name) || parsed.values[name] != nil) {
        throw UsageError(message: "\(name) given twice; give it once", command: spec.name)
      }
      if let valueName = option.value {
        let value: String
        if let inline {
          value = inline
        } else if index < arguments.count {
          value = arguments[index]
          index += 1
        } else {
          throw UsageError(message: "\(name) needs a value (\(valueName))", command: spec.name)
        }
        parsed.values[name, default: []].append(value)
      } else {
        if let inline, option.inlineValue {
          parsed.values[name, default: []].append(inline)
        } else if inline != nil {
          throw UsageError(message: "\(name) takes no value", command: spec.name)
        }
        parsed.flags.insert(name)
      }
    }
    if parsed.positionals.count > maxPositionals && !parsed.wantsHelp {
      let extra = parsed.positionals[maxPositionals]
      throw UsageError(message: "unexpected argument '\(extra)'", command: spec.name)
    }
    if !parsed.wantsHelp {
      for option in spec.options { try option.check?(parsed.values[option.name] ?? [], spec.name) }
    }
    return parsed
  }

  /// The lane names the command line gives, for the one check of them
  /// (`KnownLanes`): the values of the options whose values are lanes
  /// (`--lane`, `--skip`, `--stream`) in the spec's order, then the positional
  /// words the spec says are lanes (`duet logs LANE`).
  var laneWords: [LaneWord] {
    let spec = Owner.spec
    var words: [LaneWord] = []
    for option in spec.options where option.completion == .lanes {
      words += (values[option.name] ?? []).map { LaneWord($0, origin: option.name, mayBeGlob: option.takesGlob) }
    }
    for (index, word) in positionals.enumerated() {
      guard let kind = spec.positionals.isEmpty ? nil : spec.positionals[min(index, spec.positionals.count - 1)], kind == .lanes else { continue }
      words.append(LaneWord(word, origin: nil))
    }
    return words
  }
}
