import DuetModel
import DuetSupport

/// A JSON number read straight from its bytes when that is exact: most
/// numbers in a token file (`0.478431`, `16`, `-0.01`) have few digits, and
/// for them a `String` and `Double(_:)` per number was most of the cost of
/// reading numbers.
enum JSONNumber {
  /// Powers of ten a `Double` holds exactly.
  private static let powersOfTen: [Double] = (0...15).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }

  /// The value of `text`, already checked as JSON number syntax, when it has
  /// no exponent and at most 15 digits; nil otherwise (then `Double(_:)` reads
  /// it). Exact: the digits as an integer and the power of ten are both exact
  /// `Double`s, and one division rounds correctly, as `Double(_:)` does.
  static func exact(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    let negative = text.first == UInt8(ascii: "-")
    if negative { index = 1 }
    var digits: UInt64 = 0
    var count = 0
    var fractionDigits = 0
    var inFraction = false
    while index < text.count {
      let byte = text[index]
      if byte == UInt8(ascii: ".") && !inFraction {
        inFraction = true
      } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
        digits = digits * 10 + UInt64(byte - UInt8(ascii: "0"))
        count += 1
        if inFraction { fractionDigits += 1 }
      } else {
        return nil
      }
      if count > 15 { return nil }
      index += 1
    }
    guard count > 0 else { return nil }
    let value = Double(digits) / powersOfTen[fractionDigits]
    return negative ? -value : value
  }
}
