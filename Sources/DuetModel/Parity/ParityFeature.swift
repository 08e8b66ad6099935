import DuetSupport

/// One feature: the sides it declares (`swift:`, `kotlin:`) and its fixtures.
/// Other per-feature keys are the toolchain's business and are carried as text.
public struct ParityFeature: Sendable, Equatable {
  /// The feature's key under `features:`.
  public var name: String
  /// The Swift source folder, relative to the tree root.
  public var swift: String?
  /// `pending` while the Kotlin port has not landed.
  public var kotlin: String?
  /// Fixture files the feature's tests replay.
  public var fixtures: [String] = []
  /// Every other per-feature key whose value is a scalar, with its text.
  public var otherKeys: [String: String] = [:]
  /// Where the feature's key is, for messages.
  public var location: SourceLocation

  public init(name: String, location: SourceLocation) {
    self.name = name
    self.location = location
  }

  /// The source paths the feature declares, without `pending`.
  public var sourcePaths: [String] {
    [swift, kotlin].compactMap { $0 }.filter { $0 != "pending" }
  }
}
