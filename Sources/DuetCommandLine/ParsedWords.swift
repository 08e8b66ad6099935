import DuetSupport

/// The options and positional words of one command line, checked against its
/// command's spec in one step: each word an option the spec lists (or a
/// positional), each option once unless repeatable, each value as its key
/// checks it (`OptionSpec.check`). Knows no command: the executable's
/// `ParsedArguments` reads it through each command's keys.
package struct ParsedWords: Sendable {
  private var flags: Set<String> = []
  private var values: [String: [String]] = [:]
  package private(set) var positionals: [String] = []
  package private(set) var wantsHelp = false

  /// Whether the option `name` was given, with or without a value.
  package func given(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

  /// The values given to the option `name`, in order.
  package func values(of name: String) -> [String] { values[name] ?? [] }

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

  package static func parse(_ arguments: [String], spec: CommandSpec, maxPositionals: Int) throws(UsageError) -> ParsedWords {
    var parsed = ParsedWords()
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
    try parsed.checkWhole(spec: spec, maxPositionals: maxPositionals)
    return parsed
  }

  /// What the line as a whole must satisfy once every word is read: no more
  /// positional words than the command takes, and each option's values as
  /// its key checks them. `--help` shows the help whatever else the line holds.
  private func checkWhole(spec: CommandSpec, maxPositionals: Int) throws(UsageError) {
    guard !wantsHelp else { return }
    if positionals.count > maxPositionals {
      throw UsageError(message: "unexpected argument '\(positionals[maxPositionals])'", command: spec.name)
    }
    for option in spec.options { try option.check?(values[option.name] ?? [], spec.name) }
  }
}
