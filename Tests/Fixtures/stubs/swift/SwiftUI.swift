// A stand-in for the parts of SwiftUI the generated token files use: colours
// and gradients, the font's weight, design and text style, and just enough of
// View, ViewModifier and ScaledMetric for the type scale's modifier. It imports
// UIKit for `Color(UIColor)` and `Color(uiColor:)` but does not re-export it.
import UIKit

public struct Color: Sendable {
  public init(_ color: UIColor) {}
  public init(uiColor: UIColor) {}
}

public struct Gradient {
  public init(colors: [Color]) {}
}

public struct Font: Sendable {
  public struct Weight: Sendable, Hashable {
    let value: Double
    public static let ultraLight = Weight(value: -0.8)
    public static let thin = Weight(value: -0.6)
    public static let light = Weight(value: -0.4)
    public static let regular = Weight(value: 0)
    public static let medium = Weight(value: 0.23)
    public static let semibold = Weight(value: 0.3)
    public static let bold = Weight(value: 0.4)
    public static let heavy = Weight(value: 0.56)
    public static let black = Weight(value: 0.62)
  }

  public enum Design: Sendable, Hashable {
    case `default`, serif, rounded, monospaced
  }

  /// SwiftUI's names: `title` and `caption`, where UIKit says `title1` and `caption1`.
  public enum TextStyle: Sendable, Hashable {
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
  }

  public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font { Font() }
}

public protocol View {}

/// What every modifier returns here: the stub keeps no view tree.
public struct _StubView: View {
  public init() {}
}

public protocol ViewModifier {
  associatedtype Body: View
  typealias Content = _StubView
  func body(content: Content) -> Body
}

extension View {
  public func modifier<Modifier: ViewModifier>(_ modifier: Modifier) -> _StubView { _StubView() }
  public func font(_ font: Font?) -> _StubView { _StubView() }
  public func tracking(_ tracking: CGFloat) -> _StubView { _StubView() }
  public func lineSpacing(_ lineSpacing: CGFloat) -> _StubView { _StubView() }
}

@propertyWrapper
public struct ScaledMetric<Value: BinaryFloatingPoint> {
  public var wrappedValue: Value
  public init(wrappedValue: Value, relativeTo textStyle: Font.TextStyle) {
    self.wrappedValue = wrappedValue
  }
}
