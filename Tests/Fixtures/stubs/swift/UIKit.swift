// A stand-in for UIKit with only what the generated token files use, so the
// compile test can type-check them on Linux. It imports and re-exports nothing.

public typealias CGFloat = Double

open class UIColor: @unchecked Sendable {
  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {}
  /// The dynamic colour `Color(light:dark:)` wraps.
  public init(dynamicProvider: @escaping @Sendable (UITraitCollection) -> UIColor) {}
}

public enum UIUserInterfaceStyle: Sendable {
  case unspecified, light, dark
}

open class UITraitCollection {
  public init() {}
  open var userInterfaceStyle: UIUserInterfaceStyle { .unspecified }
}

open class UIFont {
  public init() {}

  open class func systemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont() }
  open var lineHeight: CGFloat { 0 }

  public struct TextStyle: Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let largeTitle = TextStyle(rawValue: "largeTitle")
    public static let title1 = TextStyle(rawValue: "title1")
    public static let title2 = TextStyle(rawValue: "title2")
    public static let title3 = TextStyle(rawValue: "title3")
    public static let headline = TextStyle(rawValue: "headline")
    public static let subheadline = TextStyle(rawValue: "subheadline")
    public static let body = TextStyle(rawValue: "body")
    public static let callout = TextStyle(rawValue: "callout")
    public static let footnote = TextStyle(rawValue: "footnote")
    public static let caption1 = TextStyle(rawValue: "caption1")
    public static let caption2 = TextStyle(rawValue: "caption2")
  }
}
