import DuetSupport

/// What `--lane`, `--skip`, `DUET_SKIP` and `--tag` name: a lane by its name or
/// by a glob over names in duet's one glob dialect (`*` any run of characters,
/// `?` one; lane names hold no `/`, so a name is one segment), or the lanes that
/// carry a tag.
package enum LaneSelector {
  /// Whether `pattern` has a wildcard, so it may match several lanes.
  static func isGlob(_ pattern: String) -> Bool { pattern.contains("*") || pattern.contains("?") }

  /// The indices of the lanes `pattern` names, in manifest order.
  package static func matches(_ pattern: String, in names: [String]) -> [Int] {
    if !isGlob(pattern) { return names.firstIndex(of: pattern).map { [$0] } ?? [] }
    return names.indices.filter { Glob.segmentMatches(pattern, names[$0]) }
  }

  /// The indices of the lanes that carry `tag`, in manifest order.
  package static func tagged(_ tag: String, in lanes: [Lane]) -> [Int] {
    lanes.indices.filter { lanes[$0].tags.contains(tag) }
  }

  /// Every tag of the manifest, each once, in the order first declared.
  package static func allTags(_ lanes: [Lane]) -> [String] {
    var seen: [String] = []
    for lane in lanes { for tag in lane.tags where !seen.contains(tag) { seen.append(tag) } }
    return seen
  }

  /// The one wording of a lane name that names no lane, wherever it was given
  /// (`--lane`, `--skip`, `--stream`, `DUET_SKIP`, `duet logs LANE`): where it
  /// came from, the name, the manifest, the nearest lane and the lanes there
  /// are. The name comes from the command line or the environment, so it is
  /// escaped: a line feed or an escape sequence in it must not start a line (a
  /// forged `::error`) or reach the terminal. `origin`: the option or variable
  /// that gave it, nil for a command's LANE word; `glob`: the word may match
  /// several lanes; `orHistory`: lanes the history recorded count too.
  package static func unknown(_ pattern: String, origin: String?, glob: Bool, manifestPath: String, names: [String],
                              orHistory: Bool = false) -> String {
    let what: TerminalLine = glob && isGlob(pattern) ? "no lane matches '\(pattern)'" : "no lane '\(pattern)'"
    let list = names.isEmpty ? "it has none" : "its lanes: \(names.joined(separator: ", "))"
    let hint = glob ? hint(for: pattern, in: names) : Suggestion.hint(for: pattern, in: names)
    return (origin.map { "\($0): " } ?? "") + "\(what) in \(manifestPath)\(orHistory ? " or the history" : "")\(hint) (\(list))"
  }

  /// What to append to "no lane matches": the nearest lane name to a name; for
  /// a glob, the lanes a near spelling of its text before the first wildcard
  /// starts (`kotln-*` suggests the `kotlin-` lanes); else nothing.
  static func hint(for pattern: String, in names: [String]) -> String {
    guard isGlob(pattern) else { return Suggestion.hint(for: pattern, in: names) }
    let prefix = String(pattern.prefix { $0 != "*" && $0 != "?" })
    guard !prefix.isEmpty else { return "" }
    let starts = Array(Set(names.map { String($0.prefix(prefix.count)) })).sorted()
    guard let near = Suggestion.nearest(to: prefix, in: starts) else { return "" }
    let lanes = names.filter { $0.hasPrefix(near) }
    let shown = lanes.prefix(5).map { "'\($0)'" }
    return "; did you mean " + (shown.count == 1 ? shown[0] : shown.dropLast().joined(separator: ", ") + " or " + shown[shown.count - 1])
      + (lanes.count > 5 ? " (and \(lanes.count - 5) more)" : "") + "?"
  }
}
