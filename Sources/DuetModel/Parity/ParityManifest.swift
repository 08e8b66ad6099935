import DuetSupport

/// `parity/manifest.yaml`, the Duet toolchain's own manifest: its features, chains,
/// presentation ledger, mock generator rows and replay runner. duet reads it so a
/// Duet-shaped tree needs no second copy of what it already declares.
public struct ParityManifest: Sendable {
  /// Where the Duet toolchain keeps it under a tree root.
  public static let defaultPath = "parity/manifest.yaml"
  /// The toolchain's top level, exactly: any other key is an error, because a
  /// misspelled section would otherwise drop its whole block in silence.
  public static let topLevelKeys = ["features", "chains", "presentation", "mocks", "replayRunner"]

  /// The manifest's path relative to the tree root, as messages name it.
  public var path: String
  /// In file order.
  public var features: [ParityFeature] = []
  /// The `chains` list as written (the toolchain's feature chains); duet counts
  /// them for `init` and `doctor` and reads nothing more into them.
  public var chains: [Located<String>] = []
  /// How many `presentation.waivers` and `presentation.islands` entries there
  /// are: their shape is checked, their meaning is the toolchain's.
  public var waiverCount = 0
  public var islandCount = 0
  /// Nil when the manifest has no `mocks:` section.
  public var mocks: ParityMocks?
  /// The Swift package root owning the replay runner, when the manifest names one.
  public var replayRunner: String?

  public init(path: String = ParityManifest.defaultPath) {
    self.path = path
  }

  /// The `mocks:` generator rows as the manifest entries `duet mocks` checks.
  public var mockEntries: [MockEntry] {
    guard let mocks else { return [] }
    return mocks.generators.map { $0.mockEntry(bundle: mocks.bundle) }
  }
}
