/// A generated mock file and the source roots it is made from (`mocks:` in the manifest).
public struct MockEntry: Sendable, Equatable {
  public var output: String
  public var sources: [String]
  /// Globs under each source root; `**/*.swift` unless the entry says otherwise.
  public var include: [String] = ["**/*.swift"]
  /// A shell command that writes the output's body, if duet should run one.
  public var generator: String?
  /// The generator's version, recorded in the fingerprint block.
  public var bundle: String?
  public var location: SourceLocation

  public init(output: String, sources: [String], location: SourceLocation) {
    self.output = output
    self.sources = sources
    self.location = location
  }
}
