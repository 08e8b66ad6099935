import DuetMocks
import DuetModel
import DuetTokens

extension BuiltinSet {
  /// The built-ins this duet ships. Registered here, the one layer that knows
  /// every feature, and handed down to the runner and the manifest loader.
  static let standard = BuiltinSet([.mocks, .designTokens, .themeTest])
}
