// The app's theme class as the tutorial writes it, for a config with no
// gradients: the app sets `_GradientAsset` to `EmptyAsset` itself.
import DuetTheming
import UIKit

public class MainTheme: Themed, Assetable {
  public typealias _ImageAsset = EmptyAsset
  public typealias _GradientAsset = EmptyAsset

  public func fontSet(for asset: _FontAsset) -> FontSet {
    let token = fontToken(for: asset)
    let _: UIFont.TextStyle = token.textStyle
    return FontSet(.static(UIFont()))
  }
}
