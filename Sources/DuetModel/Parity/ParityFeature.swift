import DuetSupport

/// One feature: the sides it declares (`swift:`, `kotlin:`) and its fixtures.
/// Other per-feature keys are the toolchain's business and are carried as text.
package struct ParityFeature: Sendable, Equatable {
  /// The feature's key under `features:`.
  package var name: String
  /// The Swift source folder, relative to the tree root.
  var swift: String?
  /// `pending` while the Kotlin port has not landed.
  var kotlin: String?
  /// Fixture files the feature's tests replay.
  var fixtures: [String] = []
  /// Every other per-feature key whose value is a scalar, with its text.
  var otherKeys: [String: String] = [:]
  /// Where the feature's key is, for messages.
  var location: SourceLocation

  init(name: String, location: SourceLocation) {
    self.name = name
    self.location = location
  }

  /// The source paths the feature declares, without `pending`.
  package var sourcePaths: [String] {
    [swift, kotlin].compactMap { $0 }.filter { $0 != "pending" }
  }
}
