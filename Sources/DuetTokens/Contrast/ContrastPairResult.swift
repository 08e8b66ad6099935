import DuetModel
import DuetSupport

/// One label on one surface in one theme and appearance: the colours as the
/// eye sees them (translucency composited) and the ratio against the level.
public struct ContrastPairResult: Sendable, Equatable {
  public var theme: String
  public var level: ContrastLevel
  public var appearance: Appearance
  public var label: String
  public var surface: String
  /// The main-palette tokens the theme reads for them (the same names in an unmapped theme).
  public var labelSource: String
  public var surfaceSource: String
  /// The type token a `pairs:` entry gave, if any.
  public var font: String?
  public var largeText: Bool
  /// The composited colours the ratio was taken between.
  public var labelColor: SRGBColor
  public var surfaceColor: SRGBColor
  /// Unrounded: a pair passes only when this reaches `required`.
  public var ratio: Double
  public var required: Double

  public init(
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

  public var passes: Bool { ratio >= required }

  /// How far above its threshold the pair sits; the worst pair is the lowest,
  /// so a large-text pair at 3.2:1 against 3:1 ranks above body text at 4.6:1 against 4.5:1.
  public var margin: Double { ratio / required }

  /// `labelSecondary on cardSurface`.
  public var pairName: String { "\(label) on \(surface)" }

  /// `AA`, or `AA, large text`.
  public var levelLabel: String { level.label(largeText: largeText) }

  /// `labelSecondary on cardSurface (light, main): 3.54:1 < 4.5:1 (AA)`, and
  /// for a mapped theme which tokens it read, since those are what to change.
  public var shortfallLine: String {
    var line = "\(pairName) (\(appearance.rawValue), \(theme)): \(ratioText(ratio)) < \(thresholdText(required)) (\(levelLabel))"
    if labelSource != label || surfaceSource != surface {
      line += "; \(theme) reads \(labelSource) on \(surfaceSource)"
    }
    return line
  }
}
