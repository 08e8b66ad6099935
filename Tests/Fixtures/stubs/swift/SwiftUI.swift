// A stand-in for SwiftUI's colour and gradient types. It imports UIKit for
// `Color(UIColor)` but does not re-export it.
import UIKit

public struct Color {
  public init(_ color: UIColor) {}
}

public struct Gradient {
  public init(colors: [Color]) {}
}
