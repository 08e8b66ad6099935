import DuetCommandLine
import DuetSupport

/// One option of one command, declared once: the spec that help, the man page
/// and the completions show, and what a lookup of it returns. A command reads
/// its options through these keys (`line[jobs]`, in its `options(_:)`), never by spelling, so a
/// misspelt option does not compile; `Owner` is the command that declares the
/// key, so a command cannot read another's. Each kind checks (in debug builds)
/// that its spec says the same: a flag has no value, a repeated one is repeatable.
struct Option<Owner: Command, Value>: Sendable {
  let spec: OptionSpec
  /// The value from what the command line gave: whether the option came, its
  /// values in order, and the command's name for a usage error.
  let read: @Sendable (_ given: Bool, _ values: [String], _ command: String) throws(UsageError) -> Value

  /// Whether the option was given at all, whatever its value.
  var given: Option<Owner, Bool> { Option<Owner, Bool>(spec: spec) { given, _, _ in given } }
}

extension Option where Value == Bool {
  /// A flag: given or not.
  static func flag(_ spec: OptionSpec) -> Self {
    assert(spec.value == nil, "\(spec.name): a flag takes no value")
    return Self(spec: spec) { given, _, _ in given }
  }
}

extension Option where Value == String? {
  /// An option with a value: the last one given (options given twice are refused unless repeatable).
  static func text(_ spec: OptionSpec) -> Self {
    assert(spec.value != nil, "\(spec.name): a value needs its name (N, DIR)")
    return Self(spec: spec) { _, values, _ in values.last }
  }
}

extension Option where Value == [String] {
  /// A repeatable option: every value, in order.
  static func repeated(_ spec: OptionSpec) -> Self {
    assert(spec.value != nil && spec.repeatable, "\(spec.name): a repeated value is repeatable and has a name")
    return Self(spec: spec) { _, values, _ in values }
  }
}

extension Option {
  /// A key whose value is read from the last one given by `convert`, which the
  /// parse also runs (`OptionSpec.check`), so a bad value is refused with the
  /// rest of the command line, before the command runs.
  static func converted<Converted>(_ spec: OptionSpec,
                                   _ convert: @escaping @Sendable (String, String) throws(UsageError) -> Converted) -> Self
  where Value == Converted? {
    var spec = spec
    spec.check = { values, command throws(UsageError) in if let text = values.last { _ = try convert(text, command) } }
    return Self(spec: spec) { _, values, command throws(UsageError) in
      guard let text = values.last else { return nil }
      return try convert(text, command)
    }
  }
}

extension Option where Value == Int? {
  /// A positive whole number, or a usage error naming what was given.
  static func positiveInt(_ spec: OptionSpec) -> Self {
    assert(spec.value != nil, "\(spec.name): a number needs its name (N)")
    return converted(spec) { text, command throws(UsageError) in
      guard let number = Int(text), number > 0 else {
        throw UsageError(message: "\(spec.name) needs a whole number above 0, got '\(text)'", command: command)
      }
      return number
    }
  }
}

extension Option where Value == Double? {
  /// A duration (`90s`, `10m`, `1h`) in seconds.
  static func duration(_ spec: OptionSpec) -> Self {
    assert(spec.value != nil, "\(spec.name): a duration needs its name (DURATION)")
    return converted(spec) { text, command throws(UsageError) in
      guard let seconds = DurationText.seconds(text) else {
        throw UsageError(message: "\(spec.name) needs a duration such as 90s, 10m or 1h, got '\(text)'", command: command)
      }
      return seconds
    }
  }
}

extension Option where Value == InlineFlag? {
  /// A flag that may carry a value after `=` (`--timings=FILE`): nil when not given.
  static func inlineFlag(_ spec: OptionSpec) -> Self {
    assert(spec.value == nil && spec.inlineValue, "\(spec.name): a flag with =VALUE is declared inlineValue")
    return Self(spec: spec) { given, values, _ in given ? values.last.map(InlineFlag.value) ?? .bare : nil }
  }
}

extension Option {
  /// This key with each value given also checked by `check` in the parse
  /// (a usage error naming the option, the value and what was expected), so a
  /// bad value is refused with the rest of the command line: before the lane
  /// names are checked, before the command's options are made, before any file is read.
  func checkingEach(_ check: @escaping @Sendable (_ value: String, _ command: String) throws(UsageError) -> Void) -> Self {
    var spec = self.spec
    let before = spec.check
    spec.check = { values, command throws(UsageError) in
      try before?(values, command)
      for value in values { try check(value, command) }
    }
    return Self(spec: spec, read: read)
  }
}

extension Option where Value == String? {
  /// A file named on the command line (`--junit FILE`): any text but none.
  static func file(_ spec: OptionSpec) -> Self {
    text(spec).checkingEach { value, command throws(UsageError) in
      guard value.isEmpty else { return }
      throw UsageError(message: "\(spec.name) needs a file path", command: command)
    }
  }
}
