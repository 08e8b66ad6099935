import Foundation
import DuetModel
import DuetSupport

/// The DTCG value forms duet reads, each to the model's terms or to the form
/// the message should name. Pure functions: `nil` with `problem` set means the
/// value does not fit its type.
enum DTCGValues {
  /// The form a value should have had, as the message says it.
  struct Expected: Error, ExpressibleByStringInterpolation {
    var form: String
    init(_ form: String) { self.form = form }
    init(stringLiteral value: String) { form = value }
  }

  /// `"#RRGGBB"`, `"#RRGGBBAA"`, or the 2025 colour object
  /// `{"colorSpace": "srgb", "components": [r, g, b], "alpha": a, "hex": "#RRGGBB"}`.
  /// An alpha of 1 is no alpha, as a YAML colour without one.
  static func color(_ value: JSONValue) -> Result<ColorValue, Expected> {
    switch value {
    case .string(let text):
      if text.utf8.count == 9, let rgb = RGB(hex: String(text.prefix(7))), let alphaByte = UInt8(String(text.suffix(2)), radix: 16) {
        return .success(ColorValue(rgb, alpha: alphaByte == 0xFF ? nil : Double(alphaByte) / 255))
      }
      if let rgb = RGB(hex: text) { return .success(ColorValue(rgb)) }
      return .failure("a colour \"#RRGGBB\", \"#RRGGBBAA\" or a colour object {colorSpace, components, alpha}")
    case .object(let members):
      let allowed = ["colorSpace", "components", "alpha", "hex"]
      // Sorted only when a key is unknown, to name the first of them.
      if members.keys.contains(where: { !allowed.contains($0) }), let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
        return .failure("a colour object with colorSpace, components, alpha and hex only, not '\(unknown)'")
      }
      guard case .string(let space)? = members["colorSpace"] else {
        return .failure("a colour object with \"colorSpace\": \"srgb\"")
      }
      guard space == "srgb" else {
        return .failure("an sRGB colour (\"colorSpace\": \"srgb\"), the space both platforms' colour literals use, not \"\(space)\"")
      }
      guard case .array(let parts)? = members["components"], parts.count == 3 else {
        return .failure("a colour object whose components are three numbers from 0 to 1")
      }
      var channels: [UInt32] = []
      for part in parts {
        guard case .number(let fraction) = part, fraction >= 0, fraction <= 1 else {
          return .failure("a colour object whose components are three numbers from 0 to 1 (got \(part.summary))")
        }
        channels.append(UInt32((fraction * 255).rounded()))
      }
      var rgb = RGB(channels[0] << 16 | channels[1] << 8 | channels[2])
      if let hex = members["hex"] {
        guard case .string(let text) = hex, let written = RGB(hex: text) else {
          return .failure("a colour object whose hex is \"#RRGGBB\" (got \(hex.summary))")
        }
        guard written == rgb else {
          return .failure("a colour object whose components and hex agree: the components round to #\(rgb.hex), the hex says \(text)")
        }
        rgb = written
      }
      var alpha: Double?
      if let written = members["alpha"] {
        guard case .number(let fraction) = written, fraction >= 0, fraction <= 1 else {
          return .failure("a colour object whose alpha is a number from 0 to 1 (got \(written.summary))")
        }
        alpha = fraction == 1 ? nil : fraction
      }
      return .success(ColorValue(rgb, alpha: alpha))
    default:
      return .failure("a colour \"#RRGGBB\" or a colour object {colorSpace, components, alpha}")
    }
  }

  /// A dimension in points: `{"value": 16, "unit": "px"}` (or `rem`, 16 px
  /// each), or the older string form `"16px"`. `em` is accepted where
  /// `allowEm` (letter spacing), returned as a negative-free tagged value.
  enum Length: Equatable {
    case points(Double)
    case em(Double)
  }

  static func dimension(_ value: JSONValue, allowEm: Bool = false) -> Result<Length, Expected> {
    let form = allowEm
      ? "a dimension {\"value\": n, \"unit\": \"px\"} (or \"rem\", or \"em\" for letter spacing)"
      : "a dimension {\"value\": n, \"unit\": \"px\"} (or \"rem\")"
    var number: Double?
    var unit: String?
    switch value {
    case .object(let members):
      if let unknown = members.keys.sorted().first(where: { $0 != "value" && $0 != "unit" }) {
        return .failure("\(form), not an object with '\(unknown)'")
      }
      if case .number(let n)? = members["value"] { number = n }
      if case .string(let u)? = members["unit"] { unit = u }
    case .string(let text):
      for suffix in ["px", "rem", "em"] where text.hasSuffix(suffix) {
        if let n = Double(text.dropLast(suffix.count)), n.isFinite {
          number = n
          unit = suffix
          break
        }
      }
    default:
      break
    }
    guard let number, let unit else { return .failure(Expected(form)) }
    switch unit {
    case "px": return .success(.points(number))
    case "rem": return .success(.points(number * 16))
    case "em" where allowEm: return .success(.em(number))
    default: return .failure("\(form), not the unit \"\(unit)\"")
    }
  }

  /// The CSS weight names DTCG allows, as numbers.
  static let weightNames: [String: Int] = [
    "thin": 100, "hairline": 100, "extra-light": 200, "ultra-light": 200, "light": 300, "normal": 400,
    "regular": 400, "book": 400, "medium": 500, "semi-bold": 600, "demi-bold": 600, "bold": 700,
    "extra-bold": 800, "ultra-bold": 800, "black": 900, "heavy": 900, "extra-black": 950, "ultra-black": 950,
  ]

  /// A weight both platforms can state: a multiple of 100 from 100 to 900, as a number or a CSS name.
  static func fontWeight(_ value: JSONValue) -> Result<Int, Expected> {
    let form = "a font weight that is a multiple of 100 from 100 to 900, or a name such as \"semi-bold\""
    var weight: Int?
    switch value {
    case .number(let n) where n == n.rounded() && abs(n) < 10_000: weight = Int(n)
    case .string(let name): weight = weightNames[name]
    default: break
    }
    guard let weight, weight >= 100, weight <= 900, weight % 100 == 0 else { return .failure(Expected(form)) }
    return .success(weight)
  }

  /// The system face a family list resolves to: its first generic family
  /// (`serif`, `sans-serif`, `monospace`), as the apps draw with system faces.
  static func fontFamily(_ value: JSONValue) -> Result<FontFamily, Expected> {
    let form = "a font family naming a generic family duet maps to a system face, serif, sans-serif or monospace (e.g. [\"Inter\", \"sans-serif\"])"
    let names: [String]
    switch value {
    case .string(let name): names = [name]
    case .array(let items):
      names = items.compactMap { if case .string(let name) = $0 { return name } else { return nil } }
      guard names.count == items.count else { return .failure(Expected(form)) }
    default: return .failure(Expected(form))
    }
    for name in names {
      switch name.lowercased() {
      case "serif": return .success(.serif)
      case "sans-serif", "sans", "system-ui": return .success(.sans)
      case "monospace", "mono": return .success(.mono)
      default: continue
      }
    }
    return .failure(Expected(form))
  }

  /// A plain number (`number` tokens, a typography `lineHeight` multiplier).
  static func number(_ value: JSONValue) -> Result<Double, Expected> {
    if case .number(let n) = value { return .success(n) }
    return .failure("a number")
  }

  /// `value` rounded to `places` decimals, so 22 / 17 × 17 prints `22.0`, not `21.999999999999996`.
  static func rounded(_ value: Double, places: Int = 4) -> Double {
    let scale = pow(10, Double(places))
    return (value * scale).rounded() / scale
  }
}
