import DuetModel
import DuetSupport

/// The token config (`parity/design-tokens.yaml`) once checked: everything the
/// emitters need, in declaration order, with no way left to be invalid.
package struct TokenConfig: Sendable, Equatable {
  /// The config's path relative to the tree root, as the banners and messages name it.
  var path: String
  var swift: SwiftTarget?
  var kotlin: KotlinTarget?
  var colorGroups: [TokenGroup<ColorToken>] = []
  var fontGroups: [TokenGroup<FontToken>] = []
  package var gradients: [GradientToken] = []
  /// The `contrast:` section `duet theme-test` reads; nil when the config has none.
  var contrast: ContrastSpec?
  /// The `themes:` section, in declaration order; empty when the config has none.
  package var themes: [ThemeSpec] = []
  /// The `spacing:` scale, in declaration order; empty when the config has none.
  var spacing: [ScaleToken] = []
  /// The `radius:` scale, in declaration order; empty when the config has none.
  var radius: [ScaleToken] = []
  /// The DTCG files `tokens:` names (relative to the tree root), which the
  /// tokens came from instead of the config; empty for a config that states them.
  var tokenSources: [String] = []

  /// The standard place of the config under a tree root.
  package static let defaultPath = "parity/design-tokens.yaml"
  /// The newest `version:` this duet understands.
  static let newestVersion = 1

  package var colors: [ColorToken] { colorGroups.flatMap(\.tokens) }
  package var fonts: [FontToken] { fontGroups.flatMap(\.tokens) }
  /// The themes that carry a `map`, and so a generated mapping file per target.
  var mappedThemes: [ThemeSpec] { themes.filter { $0.map != nil && $0.generatesMapping } }

  /// What the banners name as the tokens' source: the DTCG files when `tokens:`
  /// names them, else the config itself.
  var sourceDescription: String {
    tokenSources.isEmpty ? path : tokenSources.joined(separator: " and ")
  }
}

/// The shape of a target's files: the Duet engine's vocabularies and tables,
/// or plain SwiftUI / Compose values for an app with no theme engine.
enum TokenStyle: String, Sendable, Equatable, CaseIterable {
  case engine
  case swiftui
  case compose
}

/// One step of a `spacing:` or `radius:` scale: a name and a number of points.
struct ScaleToken: Sendable, Equatable {
  var name: String
  var doc: String?
  var value: Double
}

/// Where the Swift files go, their style and, for the engine style, the engine
/// module they import and the theme class the table extends.
struct SwiftTarget: Sendable, Equatable {
  var output: String
  /// `.engine` or `.swiftui`.
  var style: TokenStyle = .engine
  /// Empty in the `swiftui` style, which imports no engine.
  var engine: String
  /// Empty in the `swiftui` style, which has no theme class.
  var theme: String
  /// Where `output:` was written, for a message when writing there is refused.
  var outputLocation: SourceLocation?
}

/// Where the Kotlin files go, their package, their style and, for the engine
/// style, the engine package and the palette object's name.
struct KotlinTarget: Sendable, Equatable {
  var output: String
  var package: String
  /// `.engine` or `.compose`.
  var style: TokenStyle = .engine
  /// Empty in the `compose` style, which imports no engine.
  var engine: String
  /// Empty in the `compose` style, which has no palette object.
  var palette: String
  /// Where `output:` was written, for a message when writing there is refused.
  var outputLocation: SourceLocation?
}

/// A run of tokens under an optional heading, which becomes a section in every file.
struct TokenGroup<Token: Sendable & Equatable>: Sendable, Equatable {
  var heading: String?
  var tokens: [Token]
}

/// A 24-bit sRGB colour as written (`#RRGGBB`).
package struct RGB: Sendable, Equatable, Hashable {
  var value: UInt32
  init(_ value: UInt32) { self.value = value & 0xFF_FFFF }

  /// `"#1A1A1A"` -> 0x1A1A1A; nil for anything else.
  init?(hex text: String) {
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
  var hex: String { tokenHexDigits(value, count: 6) }
}

/// One appearance of a colour: its RGB and, when written, its alpha fraction.
struct ColorValue: Sendable, Equatable {
  var rgb: RGB
  /// Nil when the config gives none (opaque, and the Swift call omits `alpha:`).
  var alpha: Double?
  init(_ rgb: RGB, alpha: Double? = nil) {
    self.rgb = rgb
    self.alpha = alpha
  }

  /// The alpha byte of `0xAARRGGBB`: fraction × 255, rounded half away from zero (0.3 -> 0x4D).
  var alphaByte: UInt32 {
    guard let alpha else { return 0xFF }
    // Snap the product to a millionth first: 0.7 × 255 is 178.49999999999997
    // in binary, and the decimal tie (178.5) must round away from zero too.
    let product = ((alpha * 255) * 1_000_000).rounded() / 1_000_000
    return UInt32(min(255, max(0, product.rounded(.toNearestOrAwayFromZero))))
  }

  /// `AARRGGBB`, the Kotlin literal's digits.
  var argbHex: String { tokenHexDigits(alphaByte << 24 | rgb.value, count: 8) }
}

/// A colour token: one value for every appearance, or a light and a dark one.
package struct ColorToken: Sendable, Equatable {
  enum Values: Sendable, Equatable {
    case single(ColorValue)
    case lightDark(light: ColorValue, dark: ColorValue)
  }
  var name: String
  var doc: String?
  var note: String?
  var values: Values

  /// The value the token has in one appearance.
  func value(_ appearance: Appearance) -> ColorValue {
    switch (values, appearance) {
    case (.single(let value), _): return value
    case (.lightDark(let light, _), .light): return light
    case (.lightDark(_, let dark), .dark): return dark
    }
  }

}

/// The two appearances every colour is tested in.
enum Appearance: String, Sendable, CaseIterable {
  case light, dark
}

/// The three families a type token may name; each engine maps them to its faces.
enum FontFamily: String, Sendable, CaseIterable {
  case serif, sans, mono
}

/// A type token: face, size and spacing, the optional variable-font axes, and
/// the Dynamic Type style it scales against on iOS.
package struct FontToken: Sendable, Equatable {
  var name: String
  var doc: String?
  var note: String?
  var family: FontFamily
  var weight: Int
  var size: Double
  var lineHeight: Double
  /// A fraction of the em; 0 when the config gives none.
  var tracking: Double = 0
  var opticalSize: Double?
  var softness: Double?
  var width: Double?
  /// Required when a Swift target exists; nil otherwise if the config leaves it out.
  var textStyle: String?

}

/// A gradient: one stop list for every appearance, or a light and a dark one (opaque stops).
package struct GradientToken: Sendable, Equatable {
  enum Stops: Sendable, Equatable {
    case single([RGB])
    case lightDark(light: [RGB], dark: [RGB])
  }
  var name: String
  var doc: String?
  var note: String?
  var stops: Stops
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
func tokenHexDigits(_ value: UInt32, count: Int) -> String {
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
