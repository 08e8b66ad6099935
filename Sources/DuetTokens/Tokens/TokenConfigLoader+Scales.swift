import DuetModel
import DuetSupport

/// The `spacing:` and `radius:` scales: a mapping of step names to points, as
/// in a 4-point spacing scale (`x1: 4`, `x2: 8`), each step optionally written
/// `{value: 8, doc: "..."}` so it carries a doc comment.
extension TokenConfigLoader {
  static let scaleKeys = ["value", "doc"]
  /// The largest step: past it a value is no length on any screen, and a
  /// Kotlin `Float` or a Swift `CGFloat` would print it in exponent form.
  static let maxScalePoints: Double = 100_000
}

extension TokenConfigLoader.Reader {
  mutating func scale(_ node: YAMLNode?, key: String) -> [ScaleToken] {
    guard let node, !node.isNull else { return [] }
    guard let pairs = node.mapping else {
      diagnostics.add(
        "the token config: '\(key)' must be a mapping of step names to points (e.g. 'x1: 4'), got \(node.summary)",
        at: node.location)
      return []
    }
    var result: [ScaleToken] = []
    var seen: [String: SourceLocation] = [:]
    for pair in pairs {
      guard let name = pair.key.scalar else { continue }
      let context = "\(key) step '\(name)'"
      if let problem = TokenNames.problem(with: name) {
        diagnostics.add("\(context): the name \(problem)", at: pair.key.location)
        continue
      }
      if let first = seen[name] {
        diagnostics.add("\(context): declared twice (first at \(first.line):\(first.column))", at: pair.key.location)
        continue
      }
      seen[name] = pair.key.location
      var doc: String?
      var valueNode = pair.value
      if pair.value.mapping != nil {
        guard let fields = YAMLFields(pair.value, context: context, allowed: TokenConfigLoader.scaleKeys, diagnostics: &diagnostics) else { continue }
        doc = text(fields, "doc")
        guard let value = fields.value("value") else {
          diagnostics.add("\(context): missing 'value' (a number of points, 0 or more)", at: pair.value.location)
          continue
        }
        valueNode = value
      }
      guard let points = number(valueNode), points >= 0, points <= TokenConfigLoader.maxScalePoints else {
        diagnostics.add("\(context): must be a number of points from 0 to 100000, got \(valueNode.summary)", at: valueNode.location)
        continue
      }
      result.append(ScaleToken(name: name, doc: doc, value: points))
    }
    return result
  }
}
