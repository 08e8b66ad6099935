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
  public var chains: [Located<String>] = []
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

/// One feature: the sides it declares (`swift:`, `kotlin:`) and its fixtures.
/// Other per-feature keys are the toolchain's business and are carried as text.
public struct ParityFeature: Sendable, Equatable {
  public var name: String
  public var swift: String?
  /// `pending` while the Kotlin port has not landed.
  public var kotlin: String?
  public var fixtures: [String] = []
  public var otherKeys: [String: String] = [:]
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

/// `mocks: {bundle, generators}`: the template bundle every row generates with.
public struct ParityMocks: Sendable, Equatable {
  public var bundle: String?
  public var generators: [ParityMockGenerator] = []
  public init(bundle: String?) { self.bundle = bundle }
}

/// One generator row: the committed file, the template that writes it, the roots
/// it is made from and the template's arguments.
public struct ParityMockGenerator: Sendable, Equatable {
  public var name: String
  public var output: String
  public var template: String
  public var sources: [String]
  public var args: [String]
  public var location: SourceLocation

  public init(name: String, output: String, template: String, sources: [String], args: [String], location: SourceLocation) {
    self.name = name
    self.output = output
    self.template = template
    self.sources = sources
    self.args = args
    self.location = location
  }

  /// The `config:` description the Duet mock templates write for this row, so
  /// the blocks they wrote validate unchanged.
  public var fingerprintDescription: String {
    "template=\(template) args=\(args.joined(separator: ";"))"
  }

  public func mockEntry(bundle: String?) -> MockEntry {
    var entry = MockEntry(output: output, sources: sources, location: location)
    entry.bundle = bundle
    entry.configDescription = fingerprintDescription
    entry.name = name
    return entry
  }
}

/// Everything wrong with a parity manifest, every problem with its position.
public struct ParityManifestError: DiagnosticError {
  public var diagnostics: [Diagnostic]
  public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
