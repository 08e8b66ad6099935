import DuetModel
import DuetSupport

/// One label on one surface in one theme and appearance: the colours as the
/// eye sees them (translucency composited) and the ratio against the level.
struct ContrastPairResult: Sendable, Equatable {
  var theme: String
  var level: ContrastLevel
  var appearance: Appearance
  var label: String
  var surface: String
  /// The main-palette tokens the theme reads for them (the same names in an unmapped theme).
  var labelSource: String
  var surfaceSource: String
  /// The type token a `pairs:` entry gave, if any.
  var font: String?
  var largeText: Bool
  /// The composited colours the ratio was taken between.
  var labelColor: SRGBColor
  var surfaceColor: SRGBColor
  /// Unrounded: a pair passes only when this reaches `required`.
  var ratio: Double
  var required: Double

  var passes: Bool { ratio >= required }

  /// How far above its threshold the pair sits; the worst pair is the lowest,
  /// so a large-text pair at 3.2:1 against 3:1 ranks above body text at 4.6:1 against 4.5:1.
  var margin: Double { ratio / required }

  /// `labelSecondary on cardSurface`.
  var pairName: String { "\(label) on \(surface)" }

  /// `AA`, or `AA, large text`.
  var levelLabel: String { level.label(largeText: largeText) }

  /// `labelSecondary on cardSurface (light, main): 3.54:1 < 4.5:1 (AA)`, and
  /// for a mapped theme which tokens it read, since those are what to change.
  var shortfallLine: TerminalLine {
    var line: TerminalLine = "\(pairName) (\(appearance.rawValue), \(theme)): \(ratioText(ratio)) < \(thresholdText(required)) (\(levelLabel))"
    if labelSource != label || surfaceSource != surface {
      line += "; \(theme) reads \(labelSource) on \(surfaceSource)"
    }
    return line
  }
}
