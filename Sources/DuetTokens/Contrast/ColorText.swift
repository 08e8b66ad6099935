import DuetModel
import DuetOutput
import DuetSupport

/// A colour as someone types it at a prompt: `#6A6A6A`, `6A6A6A`, `#6AA`, or
/// with an alpha fraction after a slash (`#1A1A1A/0.12`), which `duet contrast`
/// composites over the other colour.
package struct TypedColor: Sendable, Equatable {
  var color: SRGBColor
  var alpha: Double

  /// Nil for anything else; the caller names the word and the forms it takes.
  package init?(_ text: String) {
    var body = Substring(text)
    var alpha = 1.0
    if let slash = body.firstIndex(of: "/") {
      guard let value = Double(body[body.index(after: slash)...]), value >= 0, value <= 1 else { return nil }
      alpha = value
      body = body[..<slash]
    }
    if body.hasPrefix("#") { body = body.dropFirst() }
    let digits = Array(body)
    let expanded: [Character]
    switch digits.count {
    case 3: expanded = digits.flatMap { [$0, $0] }
    case 6: expanded = digits
    default: return nil
    }
    guard let rgb = RGB(hex: "#" + String(expanded)) else { return nil }
    self.color = SRGBColor(rgb)
    self.alpha = alpha
  }

  /// The forms `init` reads, as an error message lists them.
  package static let forms = "#RRGGBB, RRGGBB or #RGB, optionally with /ALPHA (a fraction from 0 to 1)"
}

/// `duet contrast A B`: one ratio and the four thresholds it meets or misses.
package struct ContrastQuery: Sendable {
  var foreground: SRGBColor
  var background: SRGBColor
  var ratio: Double

  /// A translucent background is taken as lying on white, a translucent
  /// foreground as lying on the background: the usual reading of text on a tint.
  package init(_ foreground: TypedColor, on background: TypedColor) {
    let white = SRGBColor(red: 1, green: 1, blue: 1)
    let ground = Compositing.over(background.color, alpha: background.alpha, beneath: white)
    let text = Compositing.over(foreground.color, alpha: foreground.alpha, beneath: ground)
    self.foreground = text
    self.background = ground
    self.ratio = contrastRatio(text, ground)
  }

  /// Level and text size, in the order WCAG lists them.
  var checks: [(level: ContrastLevel, largeText: Bool, required: Double, passes: Bool)] {
    ContrastLevel.allCases.flatMap { level in
      [false, true].map { large in
        let required = level.required(largeText: large)
        return (level, large, required, ratio >= required)
      }
    }
  }

  package var text: TerminalLine {
    var lines: [TerminalLine] = ["\(ratioText(ratio))  \(foreground.hex) on \(background.hex)"]
    let rows = checks.map { check in
      ["\(check.level.rawValue)", check.largeText ? "large text" : "normal text", check.passes ? "pass" : "fail", "needs \(thresholdText(check.required))"] as [TerminalLine]
    }
    lines += TextTable(header: nil, rows: rows).lines().map { "  " + $0 }
    return lines.joined(separator: "\n")
  }

  package var json: String { ReportJSON.text(ContrastJSON(self)) }
}

/// `duet contrast --json`: the ratio and each threshold it meets or misses.
struct ContrastJSON: Codable, Sendable, Equatable {
  struct Level: Codable, Sendable, Equatable {
    var level: String
    var largeText: Bool
    var required: Double
    var passed: Bool
  }

  var command = "contrast"
  var foreground: String
  var background: String
  var ratio: Double
  var ratioText: String
  var levels: [Level]

  init(_ query: ContrastQuery) {
    foreground = query.foreground.hex
    background = query.background.hex
    ratio = query.ratio
    ratioText = DuetTokens.ratioText(query.ratio)
    levels = query.checks.map { Level(level: $0.level.rawValue, largeText: $0.largeText, required: $0.required, passed: $0.passes) }
  }
}
