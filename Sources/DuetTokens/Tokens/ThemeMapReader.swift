import DuetModel
import DuetSupport

/// Reads a theme's `map:`, target token to the tokens that read it, one
/// entry at a time, remembering where each colour token was placed so that
/// every one is placed exactly once. Problems go to the diagnostics each
/// method is handed, in the order the config is read.
struct ThemeMapReader {
  let context: String
  /// The main palette's colour tokens, sorted: the names a map may use.
  let known: [String]
  /// False once any problem is reported: the theme then gets no map.
  private(set) var valid = true
  private var placed: [String: (target: String, location: SourceLocation)] = [:]
  private var targets: Set<String> = []

  init(context: String, known: [String]) {
    self.context = context
    self.known = known
  }

  /// One `target: [sources]` pair as an entry; nil when the pair has no
  /// list (its target checked all the same).
  mutating func entry(_ pair: YAMLPair, _ diagnostics: inout DiagnosticList) -> ThemeMapEntry? {
    guard let target = pair.key.scalar else { return nil }
    check(target: target, at: pair.key.location, &diagnostics)
    let items = pair.value.sequence ?? (pair.value.scalar != nil && !pair.value.isNull ? [pair.value] : nil)
    guard let items, !items.isEmpty else {
      diagnostics.add("\(context): 'map.\(target)' must be a list of the colour tokens that read '\(target)', got \(pair.value.summary)", at: pair.value.location)
      valid = false
      return nil
    }
    var sources: [String] = []
    for item in items {
      if let source = source(item, target: target, &diagnostics) { sources.append(source) }
    }
    return ThemeMapEntry(target: target, sources: sources)
  }

  /// A target must be a colour of the main palette, named once.
  private mutating func check(target: String, at location: SourceLocation, _ diagnostics: inout DiagnosticList) {
    if !known.contains(target) {
      diagnostics.add("\(context): 'map' maps onto '\(target)', which is not a colour token of the main palette\(Suggestion.hint(for: target, in: known))", at: location)
      valid = false
    }
    if !targets.insert(target).inserted {
      diagnostics.add("\(context): 'map' names the target '\(target)' twice; list all its tokens under one key", at: location)
      valid = false
    }
  }

  /// One item of a target's list: a colour token not placed before.
  private mutating func source(_ item: YAMLNode, target: String, _ diagnostics: inout DiagnosticList) -> String? {
    guard let source = item.scalar, !item.isNull else {
      diagnostics.add("\(context): every item of 'map.\(target)' must name a colour token, got \(item.summary)", at: item.location)
      valid = false
      return nil
    }
    guard known.contains(source) else {
      diagnostics.add("\(context): 'map.\(target)' places '\(source)', which is not a colour token\(Suggestion.hint(for: source, in: known))", at: item.location)
      valid = false
      return nil
    }
    if let first = placed[source] {
      diagnostics.add(
        "\(context): colour token '\(source)' is placed twice in 'map' (onto '\(first.target)' at \(first.location.line):\(first.location.column), and onto '\(target)'); place it exactly once",
        at: item.location)
      valid = false
      return nil
    }
    placed[source] = (target, item.location)
    return source
  }

  /// Reports, in declaration order, every colour token no entry placed.
  mutating func checkEveryTokenPlaced(_ colorNames: [String: SourceLocation], at location: SourceLocation, _ diagnostics: inout DiagnosticList) {
    // Declaration order, so the messages read as the config does.
    let declared = colorNames.sorted { ($0.value.line, $0.value.column) < ($1.value.line, $1.value.column) }.map(\.key)
    for token in declared where placed[token] == nil {
      diagnostics.add("\(context): colour token '\(token)' is left out of 'map'; place every colour token exactly once, as an exhaustive switch would demand", at: location)
      valid = false
    }
  }
}
