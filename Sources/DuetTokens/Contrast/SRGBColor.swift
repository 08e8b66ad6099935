import Foundation
import DuetModel
import DuetSupport

/// An opaque colour in sRGB, each channel the encoded value from 0 to 1 (an
/// 8-bit channel over 255), with WCAG 2.2's relative luminance.
struct SRGBColor: Sendable, Equatable {
  var red: Double
  var green: Double
  var blue: Double

  init(red: Double, green: Double, blue: Double) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// From `0xRRGGBB`.
  init(_ rgb: RGB) {
    self.init(
      red: Double((rgb.value >> 16) & 0xFF) / 255, green: Double((rgb.value >> 8) & 0xFF) / 255,
      blue: Double(rgb.value & 0xFF) / 255)
  }

  /// The sRGB transfer function undone, with WCAG 2.2's threshold (0.04045;
  /// documents before May 2021 said 0.03928, which no 8-bit value falls between).
  static func linear(_ channel: Double) -> Double {
    channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
  }

  /// 0 for black, 1 for white: 0.2126 R + 0.7152 G + 0.0722 B over the linear channels.
  var relativeLuminance: Double {
    0.2126 * Self.linear(red) + 0.7152 * Self.linear(green) + 0.0722 * Self.linear(blue)
  }

  /// `#RRGGBB`, each channel rounded to the nearest 8-bit value (a composite may lie between two).
  var hex: String {
    func byte(_ channel: Double) -> UInt32 { UInt32(max(0, min(255, (channel * 255).rounded()))) }
    return "#" + RGB(byte(red) << 16 | byte(green) << 8 | byte(blue)).hex
  }
}

/// The contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05) with L1 the
/// lighter; from 1 (the same) to 21 (black and white), whichever comes first.
func contrastRatio(_ a: SRGBColor, _ b: SRGBColor) -> Double {
  let la = a.relativeLuminance
  let lb = b.relativeLuminance
  return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

/// A ratio as reports print it: truncated (never rounded up) to two decimals,
/// so 4.497 prints `4.49:1` and never seems to pass 4.5. The product is first
/// snapped to a billionth, so 21 computed as 20.999999999999996 prints `21.00:1`.
func ratioText(_ ratio: Double) -> String {
  let hundredths = (((ratio * 100) * 1e9).rounded() / 1e9).rounded(.down)
  let whole = Int(hundredths) / 100
  let fraction = Int(hundredths) % 100
  return "\(whole).\(fraction < 10 ? "0" : "")\(fraction):1"
}

/// A threshold as reports print it: `4.5:1`, `7:1`.
func thresholdText(_ value: Double) -> String {
  value == value.rounded() ? "\(Int(value)):1" : "\(value):1"
}
