import DuetModel
import DuetSupport

/// Source-over compositing: a translucent colour painted over an opaque one
/// gives, per encoded sRGB channel, alpha × colour + (1 − alpha) × beneath,
/// as the platforms' default blending does.
enum Compositing {
  static func over(_ color: SRGBColor, alpha: Double, beneath: SRGBColor) -> SRGBColor {
    let a = max(0, min(1, alpha))
    func mix(_ top: Double, _ bottom: Double) -> Double { a * top + (1 - a) * bottom }
    return SRGBColor(red: mix(color.red, beneath.red), green: mix(color.green, beneath.green), blue: mix(color.blue, beneath.blue))
  }

  /// A token's value as seen over `beneath`: itself when opaque.
  static func seen(_ value: ColorValue, over beneath: SRGBColor) -> SRGBColor {
    let color = SRGBColor(value.rgb)
    guard let alpha = value.alpha, alpha < 1 else { return color }
    return over(color, alpha: alpha, beneath: beneath)
  }
}
