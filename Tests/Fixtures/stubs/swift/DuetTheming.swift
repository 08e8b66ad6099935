// A stand-in for duet-services' DuetTheming engine: the protocols and value
// types the generated files name. It imports UIKit and SwiftUI for its own
// signatures but re-exports neither, so a generated file that forgets an
// import fails here as it would on iOS.
import SwiftUI
import UIKit

public protocol ColorAssetable: Hashable {}
public protocol FontAssetable: Hashable {}
public protocol GradientAssetable: Hashable {}
public protocol ImageAssetable: Hashable {}

/// The asset family a theme does not use.
public enum EmptyAsset: ColorAssetable, FontAssetable, GradientAssetable, ImageAssetable {}

/// One value for every appearance, or one for light and one for dark.
public enum AppearanceValue<Value> {
  case `static`(Value)
  case auto(light: Value, dark: Value)
}

public struct ColorSet {
  public init(_ value: AppearanceValue<UIColor>) {}
}

public struct FontSet {
  public init(_ value: AppearanceValue<UIFont>) {}
}

public struct GradientSet {
  public init(_ value: AppearanceValue<Gradient>) {}
}

public protocol Themed: AnyObject {}

public protocol Assetable {
  associatedtype _ColorAsset: ColorAssetable
  associatedtype _FontAsset: FontAssetable
  associatedtype _ImageAsset: ImageAssetable
  associatedtype _GradientAsset: GradientAssetable

  func colorSet(for asset: _ColorAsset) -> ColorSet
  func fontSet(for asset: _FontAsset) -> FontSet
  func gradientSet(for asset: _GradientAsset) -> GradientSet
}

extension Assetable where _GradientAsset == EmptyAsset {
  public func gradientSet(for asset: EmptyAsset) -> GradientSet {
    GradientSet(.static(Gradient(colors: [])))
  }
}
