import DuetSupport

/// A generated mock file and the source roots it is made from (`mocks:` in
/// `lanes/manifest.yaml`, or a generator row of `parity/manifest.yaml`).
public struct MockEntry: Sendable, Equatable {
  public var output: String
  public var sources: [String]
  /// Globs under each source root; `**/*.swift` unless the entry says otherwise.
  public var include: [String] = MockEntry.defaultInclude
  public static let defaultInclude = ["**/*.swift"]
  /// A shell command that writes the output's body, if duet should run one.
  public var generator: String?
  /// The generator's version, recorded in the fingerprint block.
  public var bundle: String?
  /// The block's `config:` description when it is not `generator=...`: a
  /// `parity/manifest.yaml` row records `template=<file> args=<a;b>`, as the
  /// Duet mock templates write it.
  public var configDescription: String?
  /// The row's name, for an entry read from `parity/manifest.yaml`.
  public var name: String?
  public var location: SourceLocation

  public init(output: String, sources: [String], location: SourceLocation) {
    self.output = output
    self.sources = sources
    self.location = location
  }
}
