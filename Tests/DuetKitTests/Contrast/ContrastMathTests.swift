@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Testing

/// `#RRGGBB` as the maths takes it.
func srgb(_ hex: UInt32) -> SRGBColor { SRGBColor(RGB(hex)) }

@Suite("contrast: WCAG 2.2 maths")
struct ContrastMathTests {
  /// The two ends of the scale, and the ratio is symmetric.
  @Test func blackOnWhiteIsTwentyOne() {
    let ratio = contrastRatio(srgb(0x000000), srgb(0xFFFFFF))
    #expect(abs(ratio - 21) < 1e-9)
    #expect(ratioText(ratio) == "21.00:1")
    #expect(contrastRatio(srgb(0xFFFFFF), srgb(0x000000)) == ratio)
    #expect(contrastRatio(srgb(0x123456), srgb(0x123456)) == 1)
  }

  /// `#777777` on white is the classic near miss: 4.478, printed truncated so it never seems to pass.
  @Test func greySevenOnWhiteJustMissesAA() {
    let ratio = contrastRatio(srgb(0x777777), srgb(0xFFFFFF))
    #expect(abs(ratio - 4.478) < 0.0005)
    #expect(ratioText(ratio) == "4.47:1")
    #expect(ratio < ContrastLevel.aa.required(largeText: false))
    #expect(ratio >= ContrastLevel.aa.required(largeText: true))
  }

  /// Pairs worked by hand: 0x80/255 = 0.50196 → ((0.50196 + 0.055) / 1.055)^2.4 = 0.21586, and
  /// 1.05 / (0.21586 + 0.05) = 3.949; the Foyer secondary label on its card: 4.7795.
  @Test func handComputedPairs() {
    #expect(abs(contrastRatio(srgb(0x808080), srgb(0xFFFFFF)) - 3.9494) < 0.0005)
    #expect(abs(contrastRatio(srgb(0x6A6A6A), srgb(0xF1F1EE)) - 4.7795) < 0.0005)
    #expect(abs(contrastRatio(srgb(0x9C9C9C), srgb(0x3B3320)) - 4.5520) < 0.0005)
    // Luminance: the channel weights, and the linear segment below 0.04045 (10/255 = 0.0392 → /12.92).
    #expect(abs(srgb(0xFF0000).relativeLuminance - 0.2126) < 1e-12)
    #expect(abs(srgb(0x00FF00).relativeLuminance - 0.7152) < 1e-12)
    #expect(abs(srgb(0x0000FF).relativeLuminance - 0.0722) < 1e-12)
    #expect(abs(SRGBColor.linear(10.0 / 255) - (10.0 / 255) / 12.92) < 1e-15)
  }

  /// Truncated, never rounded: 4.497 prints 4.49 and 4.5 prints 4.50; a ratio
  /// that is 21 up to floating-point noise prints 21.00.
  @Test func ratiosPrintTruncatedToTwoDecimals() {
    #expect(ratioText(4.497) == "4.49:1")
    #expect(ratioText(4.5) == "4.50:1")
    #expect(ratioText(3.999999) == "3.99:1")
    #expect(ratioText(7.0) == "7.00:1")
    #expect(ratioText(20.999999999999996) == "21.00:1")
    #expect(ratioText(1.05) == "1.05:1")
    #expect(thresholdText(4.5) == "4.5:1")
    #expect(thresholdText(7) == "7:1")
  }

  /// A translucent colour is mixed with what lies beneath it before the ratio:
  /// black at 0.5 over white is channel 0.5, luminance 0.21404, 3.9767:1 against white.
  @Test func translucencyIsCompositedFirst() {
    let white = srgb(0xFFFFFF)
    let half = Compositing.seen(ColorValue(RGB(0x000000), alpha: 0.5), over: white)
    #expect(half == SRGBColor(red: 0.5, green: 0.5, blue: 0.5))
    #expect(abs(contrastRatio(half, white) - 3.9767) < 0.0005)
    // Opaque and alpha 1 read the colour itself; alpha 0 reads what lies beneath.
    #expect(Compositing.seen(ColorValue(RGB(0x336699)), over: white) == srgb(0x336699))
    #expect(Compositing.seen(ColorValue(RGB(0x336699), alpha: 1), over: white) == srgb(0x336699))
    #expect(Compositing.seen(ColorValue(RGB(0x336699), alpha: 0), over: white) == white)
    // The Foyer hairline, #1A1A1A at 0.12 over the card #F1F1EE.
    let border = Compositing.seen(ColorValue(RGB(0x1A1A1A), alpha: 0.12), over: srgb(0xF1F1EE))
    #expect(border.hex == "#D7D7D5")
  }

  /// AA 4.5 and AAA 7 for body text; 3 and 4.5 for large text.
  @Test func levelsAndTheirThresholds() {
    #expect(ContrastLevel.aa.required(largeText: false) == 4.5)
    #expect(ContrastLevel.aa.required(largeText: true) == 3)
    #expect(ContrastLevel.aaa.required(largeText: false) == 7)
    #expect(ContrastLevel.aaa.required(largeText: true) == 4.5)
    #expect(ContrastLevel.aa.label(largeText: true) == "AA, large text")
  }

  /// Large text is 18 pt at any weight, or 14 pt at 700 or more; 17 pt semibold is not.
  @Test func largeTextThresholds() {
    #expect(LargeText.isLarge(size: 18, weight: 400))
    #expect(LargeText.isLarge(size: 14, weight: 700))
    #expect(LargeText.isLarge(size: 17.5, weight: 800))
    #expect(!LargeText.isLarge(size: 17.9, weight: 600))
    #expect(!LargeText.isLarge(size: 13.9, weight: 900))
    #expect(!LargeText.isLarge(size: 17, weight: 600))
  }

  /// `duet contrast` reads `#RRGGBB`, `RRGGBB`, `#RGB` and `/ALPHA`, and nothing else.
  @Test func typedColours() throws {
    #expect(TypedColor("#6A6A6A")?.color == srgb(0x6A6A6A))
    #expect(TypedColor("6a6a6a")?.color == srgb(0x6A6A6A))
    #expect(TypedColor("#fa0")?.color == srgb(0xFFAA00))
    #expect(TypedColor("#000000/0.5")?.alpha == 0.5)
    for bad in ["", "#", "#12345", "#1234567", "#GGGGGG", "red", "#000000/2", "#000000/x", "#000000/"] {
      #expect(TypedColor(bad) == nil, "\(bad)")
    }
    let query = ContrastQuery(try #require(TypedColor("#000000/0.5")), on: try #require(TypedColor("#FFFFFF")))
    #expect(abs(query.ratio - 3.9767) < 0.0005)
    #expect(query.checks.map(\.passes) == [false, true, false, false])
  }
}
