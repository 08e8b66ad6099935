// The app's theme class, which the generated value table extends. With
// gradients declared, the generated table supplies `_GradientAsset`.
import DuetTheming
import UIKit

public class MainTheme: Themed, Assetable {
  public typealias _ImageAsset = EmptyAsset

  public func fontSet(for asset: _FontAsset) -> FontSet {
    let token = fontToken(for: asset)
    let _: UIFont.TextStyle = token.textStyle
    let _: CGFloat = token.size * token.trackingEm
    return FontSet(.static(UIFont()))
  }
}
