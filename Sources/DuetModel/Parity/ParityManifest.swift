import DuetSupport

/// `parity/manifest.yaml`, the Duet toolchain's own manifest: its features, chains,
/// presentation ledger, mock generator rows and replay runner. duet reads it so a
/// Duet-shaped tree needs no second copy of what it already declares.
package struct ParityManifest: Sendable {
  /// Where the Duet toolchain keeps it under a tree root.
  package static let defaultPath = "parity/manifest.yaml"
  /// The toolchain's top level, exactly: any other key is an error, because a
  /// misspelled section would otherwise drop its whole block in silence.
  static let topLevelKeys = ["features", "chains", "presentation", "mocks", "replayRunner"]

  /// The manifest's path relative to the tree root, as messages name it.
  package var path: String
  /// In file order.
  package var features: [ParityFeature] = []
  /// The `chains` list as written (the toolchain's feature chains); duet counts
  /// them for `init` and `doctor` and reads nothing more into them.
  package var chains: [Located<String>] = []
  /// How many `presentation.waivers` and `presentation.islands` entries there
  /// are: their shape is checked, their meaning is the toolchain's.
  var waiverCount = 0
  var islandCount = 0
  /// Nil when the manifest has no `mocks:` section.
  package var mocks: ParityMocks?
  /// The Swift package root owning the replay runner, when the manifest names one.
  var replayRunner: String?

  init(path: String = ParityManifest.defaultPath) {
    self.path = path
  }

  /// The `mocks:` generator rows as the manifest entries `duet mocks` checks.
  package var mockEntries: [MockEntry] {
    guard let mocks else { return [] }
    return mocks.generators.map { $0.mockEntry(bundle: mocks.bundle) }
  }
}
