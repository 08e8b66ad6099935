import DuetSupport

/// One command as the generated documents see it: its spec and how many
/// positional words it takes, so a completion knows whether the last kind repeats.
package struct DocumentedCommand {
  var spec: CommandSpec
  var maxPositionals: Int

  package init(spec: CommandSpec, maxPositionals: Int) {
    self.spec = spec
    self.maxPositionals = maxPositionals
  }

  /// The kind of the positional word at `index` (0-based), or nil past the last one.
  func positional(at index: Int) -> ValueKind? {
    guard index < maxPositionals, let last = spec.positionals.last else { return nil }
    return index < spec.positionals.count ? spec.positionals[index] : last
  }

  /// Whether the last positional kind stands for every word after it.
  var repeatsLastPositional: Bool { maxPositionals > spec.positionals.count && !spec.positionals.isEmpty }

  /// The options that take a value, whose next word is not a positional.
  var valuedOptions: [OptionSpec] { spec.listedOptions.filter { $0.value != nil } }
}
