import DuetModel
import DuetSupport

/// One label on one surface in one theme and appearance: the colours as the
/// eye sees them (translucency composited) and the ratio against the level.
package struct ContrastPairResult: Sendable, Equatable {
  package var theme: String
  package var level: ContrastLevel
  package var appearance: Appearance
  package var label: String
  package var surface: String
  /// The main-palette tokens the theme reads for them (the same names in an unmapped theme).
  package var labelSource: String
  package var surfaceSource: String
  /// The type token a `pairs:` entry gave, if any.
  package var font: String?
  package var largeText: Bool
  /// The composited colours the ratio was taken between.
  package var labelColor: SRGBColor
  package var surfaceColor: SRGBColor
  /// Unrounded: a pair passes only when this reaches `required`.
  package var ratio: Double
  package var required: Double

  package init(
    theme: String, level: ContrastLevel, appearance: Appearance, label: String, surface: String, labelSource: String,
    surfaceSource: String, font: String?, largeText: Bool, labelColor: SRGBColor, surfaceColor: SRGBColor,
    ratio: Double, required: Double
  ) {
    self.theme = theme
    self.level = level
    self.appearance = appearance
    self.label = label
    self.surface = surface
    self.labelSource = labelSource
    self.surfaceSource = surfaceSource
    self.font = font
    self.largeText = largeText
    self.labelColor = labelColor
    self.surfaceColor = surfaceColor
    self.ratio = ratio
    self.required = required
  }

  package var passes: Bool { ratio >= required }

  /// How far above its threshold the pair sits; the worst pair is the lowest,
  /// so a large-text pair at 3.2:1 against 3:1 ranks above body text at 4.6:1 against 4.5:1.
  package var margin: Double { ratio / required }

  /// `labelSecondary on cardSurface`.
  package var pairName: String { "\(label) on \(surface)" }

  /// `AA`, or `AA, large text`.
  package var levelLabel: String { level.label(largeText: largeText) }

  /// `labelSecondary on cardSurface (light, main): 3.54:1 < 4.5:1 (AA)`, and
  /// for a mapped theme which tokens it read, since those are what to change.
  package var shortfallLine: TerminalLine {
    var line: TerminalLine = "\(pairName) (\(appearance.rawValue), \(theme)): \(ratioText(ratio)) < \(thresholdText(required)) (\(levelLabel))"
    if labelSource != label || surfaceSource != surface {
      line += "; \(theme) reads \(labelSource) on \(surfaceSource)"
    }
    return line
  }
}
