import DuetModel
import DuetSupport

/// The token config (`parity/design-tokens.yaml`) once checked: everything the
/// emitters need, in declaration order, with no way left to be invalid.
package struct TokenConfig: Sendable, Equatable {
  /// The config's path relative to the tree root, as the banners and messages name it.
  package var path: String
  package var swift: SwiftTarget?
  package var kotlin: KotlinTarget?
  package var colorGroups: [TokenGroup<ColorToken>]
  package var fontGroups: [TokenGroup<FontToken>]
  package var gradients: [GradientToken]
  /// The `contrast:` section `duet theme-test` reads; nil when the config has none.
  package var contrast: ContrastSpec?
  /// The `themes:` section, in declaration order; empty when the config has none.
  package var themes: [ThemeSpec]
  /// The `spacing:` scale, in declaration order; empty when the config has none.
  package var spacing: [ScaleToken]
  /// The `radius:` scale, in declaration order; empty when the config has none.
  package var radius: [ScaleToken]
  /// The DTCG files `tokens:` names (relative to the tree root), which the
  /// tokens came from instead of the config; empty for a config that states them.
  package var tokenSources: [String]

  package init(
    path: String, swift: SwiftTarget? = nil, kotlin: KotlinTarget? = nil,
    colorGroups: [TokenGroup<ColorToken>] = [], fontGroups: [TokenGroup<FontToken>] = [],
    gradients: [GradientToken] = [], contrast: ContrastSpec? = nil, themes: [ThemeSpec] = [],
    spacing: [ScaleToken] = [], radius: [ScaleToken] = [], tokenSources: [String] = []
  ) {
    self.spacing = spacing
    self.radius = radius
    self.tokenSources = tokenSources
    self.contrast = contrast
    self.themes = themes
    self.path = path
    self.swift = swift
    self.kotlin = kotlin
    self.colorGroups = colorGroups
    self.fontGroups = fontGroups
    self.gradients = gradients
  }

  /// The standard place of the config under a tree root.
  package static let defaultPath = "parity/design-tokens.yaml"
  /// The newest `version:` this duet understands.
  package static let newestVersion = 1

  package var colors: [ColorToken] { colorGroups.flatMap(\.tokens) }
  package var fonts: [FontToken] { fontGroups.flatMap(\.tokens) }
  /// The themes that carry a `map`, and so a generated mapping file per target.
  package var mappedThemes: [ThemeSpec] { themes.filter { $0.map != nil && $0.generatesMapping } }

  /// What the banners name as the tokens' source: the DTCG files when `tokens:`
  /// names them, else the config itself.
  package var sourceDescription: String {
    tokenSources.isEmpty ? path : tokenSources.joined(separator: " and ")
  }
}

/// The shape of a target's files: the Duet engine's vocabularies and tables,
/// or plain SwiftUI / Compose values for an app with no theme engine.
package enum TokenStyle: String, Sendable, Equatable, CaseIterable {
  case engine
  case swiftui
  case compose
}

/// One step of a `spacing:` or `radius:` scale: a name and a number of points.
package struct ScaleToken: Sendable, Equatable {
  package var name: String
  package var doc: String?
  package var value: Double
  package init(name: String, doc: String? = nil, value: Double) {
    self.name = name
    self.doc = doc
    self.value = value
  }
}

/// Where the Swift files go, their style and, for the engine style, the engine
/// module they import and the theme class the table extends.
package struct SwiftTarget: Sendable, Equatable {
  package var output: String
  /// `.engine` or `.swiftui`.
  package var style: TokenStyle
  /// Empty in the `swiftui` style, which imports no engine.
  package var engine: String
  /// Empty in the `swiftui` style, which has no theme class.
  package var theme: String
  /// Where `output:` was written, for a message when writing there is refused.
  package var outputLocation: SourceLocation?
  package init(output: String, style: TokenStyle = .engine, engine: String, theme: String, outputLocation: SourceLocation? = nil) {
    self.style = style
    self.outputLocation = outputLocation
    self.output = output
    self.engine = engine
    self.theme = theme
  }
}

/// Where the Kotlin files go, their package, their style and, for the engine
/// style, the engine package and the palette object's name.
package struct KotlinTarget: Sendable, Equatable {
  package var output: String
  package var package: String
  /// `.engine` or `.compose`.
  package var style: TokenStyle
  /// Empty in the `compose` style, which imports no engine.
  package var engine: String
  /// Empty in the `compose` style, which has no palette object.
  package var palette: String
  /// Where `output:` was written, for a message when writing there is refused.
  package var outputLocation: SourceLocation?
  package init(
    output: String, package: String, style: TokenStyle = .engine, engine: String, palette: String,
    outputLocation: SourceLocation? = nil
  ) {
    self.style = style
    self.outputLocation = outputLocation
    self.output = output
    self.package = package
    self.engine = engine
    self.palette = palette
  }
}

/// A run of tokens under an optional heading, which becomes a section in every file.
package struct TokenGroup<Token: Sendable & Equatable>: Sendable, Equatable {
  package var heading: String?
  package var tokens: [Token]
  package init(heading: String?, tokens: [Token]) {
    self.heading = heading
    self.tokens = tokens
  }
}

/// A 24-bit sRGB colour as written (`#RRGGBB`).
package struct RGB: Sendable, Equatable, Hashable {
  package var value: UInt32
  package init(_ value: UInt32) { self.value = value & 0xFF_FFFF }

  /// `"#1A1A1A"` -> 0x1A1A1A; nil for anything else.
  package init?(hex text: String) {
    let bytes = text.utf8
    guard bytes.count == 7, bytes.first == UInt8(ascii: "#") else { return nil }
    var value: UInt32 = 0
    for byte in bytes.dropFirst() {
      guard let digit = hexDigit(byte) else { return nil }
      value = value << 4 | digit
    }
    self.value = value
  }

  /// Six upper-case hex digits, as both languages print them.
  package var hex: String { tokenHexDigits(value, count: 6) }
}

/// One appearance of a colour: its RGB and, when written, its alpha fraction.
package struct ColorValue: Sendable, Equatable {
  package var rgb: RGB
  /// Nil when the config gives none (opaque, and the Swift call omits `alpha:`).
  package var alpha: Double?
  package init(_ rgb: RGB, alpha: Double? = nil) {
    self.rgb = rgb
    self.alpha = alpha
  }

  /// The alpha byte of `0xAARRGGBB`: fraction × 255, rounded half away from zero (0.3 -> 0x4D).
  package var alphaByte: UInt32 {
    guard let alpha else { return 0xFF }
    // Snap the product to a millionth first: 0.7 × 255 is 178.49999999999997
    // in binary, and the decimal tie (178.5) must round away from zero too.
    let product = ((alpha * 255) * 1_000_000).rounded() / 1_000_000
    return UInt32(min(255, max(0, product.rounded(.toNearestOrAwayFromZero))))
  }

  /// `AARRGGBB`, the Kotlin literal's digits.
  package var argbHex: String { tokenHexDigits(alphaByte << 24 | rgb.value, count: 8) }
}

/// A colour token: one value for every appearance, or a light and a dark one.
package struct ColorToken: Sendable, Equatable {
  package enum Values: Sendable, Equatable {
    case single(ColorValue)
    case lightDark(light: ColorValue, dark: ColorValue)
  }
  package var name: String
  package var doc: String?
  package var note: String?
  package var values: Values

  /// The value the token has in one appearance.
  package func value(_ appearance: Appearance) -> ColorValue {
    switch (values, appearance) {
    case (.single(let value), _): return value
    case (.lightDark(let light, _), .light): return light
    case (.lightDark(_, let dark), .dark): return dark
    }
  }

  package init(name: String, doc: String? = nil, note: String? = nil, values: Values) {
    self.name = name
    self.doc = doc
    self.note = note
    self.values = values
  }
}

/// The two appearances every colour is tested in.
package enum Appearance: String, Sendable, CaseIterable {
  case light, dark
}

/// The three families a type token may name; each engine maps them to its faces.
package enum FontFamily: String, Sendable, CaseIterable {
  case serif, sans, mono
}

/// A type token: face, size and spacing, the optional variable-font axes, and
/// the Dynamic Type style it scales against on iOS.
package struct FontToken: Sendable, Equatable {
  package var name: String
  package var doc: String?
  package var note: String?
  package var family: FontFamily
  package var weight: Int
  package var size: Double
  package var lineHeight: Double
  /// A fraction of the em; 0 when the config gives none.
  package var tracking: Double
  package var opticalSize: Double?
  package var softness: Double?
  package var width: Double?
  /// Required when a Swift target exists; nil otherwise if the config leaves it out.
  package var textStyle: String?

  package init(
    name: String, doc: String? = nil, note: String? = nil, family: FontFamily, weight: Int, size: Double,
    lineHeight: Double, tracking: Double = 0, opticalSize: Double? = nil, softness: Double? = nil,
    width: Double? = nil, textStyle: String? = nil
  ) {
    self.name = name
    self.doc = doc
    self.note = note
    self.family = family
    self.weight = weight
    self.size = size
    self.lineHeight = lineHeight
    self.tracking = tracking
    self.opticalSize = opticalSize
    self.softness = softness
    self.width = width
    self.textStyle = textStyle
  }
}

/// A gradient: one stop list for every appearance, or a light and a dark one (opaque stops).
package struct GradientToken: Sendable, Equatable {
  package enum Stops: Sendable, Equatable {
    case single([RGB])
    case lightDark(light: [RGB], dark: [RGB])
  }
  package var name: String
  package var doc: String?
  package var note: String?
  package var stops: Stops
  package init(name: String, doc: String? = nil, note: String? = nil, stops: Stops) {
    self.name = name
    self.doc = doc
    self.note = note
    self.stops = stops
  }
}

private func hexDigit(_ byte: UInt8) -> UInt32? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
  case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
  case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
  default: return nil
  }
}

/// `value` as exactly `count` upper-case hex digits, without Foundation's formatter.
package func tokenHexDigits(_ value: UInt32, count: Int) -> String {
  let digits: StaticString = "0123456789ABCDEF"
  return String(unsafeUninitializedCapacity: count) { buffer in
    var rest = value
    for index in stride(from: count - 1, through: 0, by: -1) {
      buffer[index] = digits.utf8Start[Int(rest & 0xF)]
      rest >>= 4
    }
    return count
  }
}
