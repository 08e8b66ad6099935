import DuetCommandLine
import DuetSupport

/// The options and positional words of one command line, checked against its
/// command's spec. Options are read through the command's keys (`line[jobs]`),
/// by the command's `options(_:)` only: its `run` gets the options value.
struct ParsedArguments<Owner: Command> {
  private var words: ParsedWords
  /// Where the words came from: the working folder and environment the command
  /// must use instead of this process's (an in-process call has its own).
  var invocation: Invocation

  /// The positional words, in order.
  var positionals: [String] { words.positionals }
  /// `--help` or `-h` was given: the command shows its help and does nothing else.
  var wantsHelp: Bool { words.wantsHelp }

  /// The option's value as its key reads it; a usage error for a bad value.
  subscript<Value>(_ option: Option<Owner, Value>) -> Value {
    get throws(UsageError) {
      let name = option.spec.name
      // A key its command does not list would silently read nothing.
      assert(Owner.spec.options.contains { $0.name == name }, "\(Owner.spec.name) reads \(name) but does not list it")
      return try option.read(words.given(name), words.values(of: name), Owner.spec.name)
    }
  }

  /// The words after the command's name checked against `Owner`'s spec (`ParsedWords`).
  static func parse(_ arguments: [String], invocation: Invocation) throws(UsageError) -> ParsedArguments {
    ParsedArguments(words: try ParsedWords.parse(arguments, spec: Owner.spec, maxPositionals: Owner.maxPositionals), invocation: invocation)
  }

  /// The lane names the command line gives, for the one check of them
  /// (`KnownLanes`): the values of the options whose values are lanes
  /// (`--lane`, `--skip`, `--stream`) in the spec's order, then the positional
  /// words the spec says are lanes (`duet logs LANE`).
  var laneWords: [LaneWord] {
    let spec = Owner.spec
    var words: [LaneWord] = []
    for option in spec.options where option.completion == .lanes {
      words += self.words.values(of: option.name).map { LaneWord($0, origin: option.name, mayBeGlob: option.takesGlob) }
    }
    for (index, word) in positionals.enumerated() {
      guard let kind = spec.positionals.isEmpty ? nil : spec.positionals[min(index, spec.positionals.count - 1)], kind == .lanes else { continue }
      words.append(LaneWord(word, origin: nil))
    }
    return words
  }
}
