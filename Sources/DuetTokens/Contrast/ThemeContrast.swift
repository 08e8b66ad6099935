import DuetModel
import DuetSupport

/// The theme test's arithmetic, with no I/O: every label on every surface (plus the
/// config's extra pairs), per theme and appearance, against the theme's level.
enum ThemeContrast {
  /// The pairs a config asks for, in the order reports list them: per theme,
  /// per appearance, labels outer and surfaces inner, then any extra pair.
  /// An extra pair that repeats a grid pair only gives it its font.
  static func pairs(_ contrast: ContrastSpec) -> [ContrastPair] {
    var pairs: [ContrastPair] = []
    for label in contrast.labels {
      for surface in contrast.surfaces { pairs.append(ContrastPair(label: label, surface: surface)) }
    }
    for extra in contrast.pairs {
      if let index = pairs.firstIndex(where: { $0.label == extra.label && $0.surface == extra.surface }) {
        if extra.font != nil { pairs[index].font = extra.font }
      } else {
        pairs.append(extra)
      }
    }
    return pairs
  }

  /// The themes under test: the config's, or the main palette alone at AA
  /// when it declares none.
  static func themes(_ config: TokenConfig) -> [ThemeSpec] {
    config.themes.isEmpty ? [ThemeSpec(name: "main", level: .aa)] : config.themes
  }

  /// Every pair's result. The config must have a `contrast:` section whose
  /// tokens it declares; the loader guarantees that, so a name it cannot find
  /// is skipped rather than trapped on.
  static func evaluate(_ config: TokenConfig) -> [ContrastPairResult] {
    guard let contrast = config.contrast else { return [] }
    let colors = Dictionary(config.colors.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let fonts = Dictionary(config.fonts.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let pairs = pairs(contrast)
    var results: [ContrastPairResult] = []
    for theme in themes(config) {
      for appearance in Appearance.allCases {
        guard let backdropToken = colors[theme.source(of: contrast.backdrop)] else { continue }
        // The backdrop is opaque (the loader refuses a translucent one).
        let backdrop = SRGBColor(backdropToken.value(appearance).rgb)
        for pair in pairs {
          let labelSource = theme.source(of: pair.label)
          let surfaceSource = theme.source(of: pair.surface)
          guard let labelToken = colors[labelSource], let surfaceToken = colors[surfaceSource] else { continue }
          let surfaceColor = Compositing.seen(surfaceToken.value(appearance), over: backdrop)
          let labelColor = Compositing.seen(labelToken.value(appearance), over: surfaceColor)
          let large = pair.font.flatMap { fonts[$0] }.map(LargeText.isLarge) ?? false
          results.append(
            ContrastPairResult(
              theme: theme.name, level: theme.level, appearance: appearance, label: pair.label, surface: pair.surface,
              labelSource: labelSource, surfaceSource: surfaceSource, font: pair.font, largeText: large,
              labelColor: labelColor, surfaceColor: surfaceColor, ratio: contrastRatio(labelColor, surfaceColor),
              required: theme.level.required(largeText: large)))
        }
      }
    }
    return results
  }

  /// The lowest margin among `results`, the first of equals.
  static func worst(_ results: [ContrastPairResult]) -> ContrastPairResult? {
    results.reduce(nil) { worst, next in
      guard let worst else { return next }
      return next.margin < worst.margin ? next : worst
    }
  }
}
