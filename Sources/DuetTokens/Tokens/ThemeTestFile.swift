import Foundation
import DuetModel
import DuetSupport

/// Where theme-test settings may live apart from the token config:
/// `theme-test.yaml` beside it (`parity/theme-test.yaml` for the standard
/// config). The Duet toolchain's engine rejects keys it does not know, so a
/// tree it generates keeps `contrast:` and `themes:` here and its
/// `design-tokens.yaml` to the engine's grammar.
package struct ThemeTestFile: Sendable, Equatable {
  package static let fileName = "theme-test.yaml"
  /// Beside the standard config.
  static let defaultPath = "parity/theme-test.yaml"

  package var url: URL
  /// How messages name it, relative to the tree like the config's path.
  package var path: String

  /// The file beside the config at `configURL`, named as `configPath` names the config.
  package static func beside(configURL: URL, configPath: String) -> ThemeTestFile {
    let folder = (configPath as NSString).deletingLastPathComponent
    return ThemeTestFile(
      url: configURL.deletingLastPathComponent().appendingPathComponent(fileName),
      path: folder.isEmpty ? fileName : folder + "/" + fileName)
  }
}
