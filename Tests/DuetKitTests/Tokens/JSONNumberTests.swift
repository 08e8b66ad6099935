import Testing
@testable import DuetTokens
@testable import DuetModel
@testable import DuetSupport

/// `JSONNumber.exact` must give the same `Double`, bit for bit, as
/// `Double(_:)` for every number it reads, and leave the rest to it.
@Suite("JSON numbers read from their bytes")
struct JSONNumberTests {
  private func exact(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { JSONNumber.exact($0) }
  }

  @Test func sameBitsAsDouble() {
    var generator = SystemRandomNumberGenerator()
    var texts = ["0", "-0", "0.0", "-0.0", "1", "16", "100", "0.5", "0.1", "0.3", "-0.01", "87.5", "0.478431",
                 "123456789012345", "0.000000000000001", "999999999999999", "9007199254740.99"]
    for _ in 0..<20_000 {
      let whole = String(UInt64.random(in: 0...999_999, using: &generator))
      let fraction = String(UInt64.random(in: 0...99_999_999, using: &generator))
      let zeros = String(repeating: "0", count: Int.random(in: 0...3, using: &generator))
      texts.append((Bool.random(using: &generator) ? "-" : "") + whole + "." + zeros + fraction)
    }
    for text in texts {
      guard let expected = Double(text) else { continue }
      if let value = exact(text) {
        #expect(value.bitPattern == expected.bitPattern, "\(text)")
      } else {
        // Only long numbers are left to Double(_:).
        #expect(text.filter(\.isNumber).count > 15, "\(text)")
      }
    }
  }

  @Test func leavesExponentsAndLongNumbersToDouble() {
    #expect(exact("1e5") == nil)
    #expect(exact("2.5E-3") == nil)
    #expect(exact("1234567890123456") == nil)
    #expect(exact("0.1234567890123456") == nil)
  }
}
