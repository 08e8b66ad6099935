import DuetSupport

/// A generated mock file and the source roots it is made from (`mocks:` in
/// `lanes/manifest.yaml`, or a generator row of `parity/manifest.yaml`).
package struct MockEntry: Sendable, Equatable {
  package var output: String
  package var sources: [String]
  /// Globs under each source root; `**/*.swift` unless the entry says otherwise.
  package var include: [String] = MockEntry.defaultInclude
  package static let defaultInclude = ["**/*.swift"]
  /// A shell command that writes the output's body, if duet should run one.
  package var generator: String?
  /// The generator's version, recorded in the fingerprint block.
  package var bundle: String?
  /// The block's `config:` description when it is not `generator=...`: a
  /// `parity/manifest.yaml` row records `template=<file> args=<a;b>`, as the
  /// Duet mock templates write it.
  package var configDescription: String?
  /// The row's name, for an entry read from `parity/manifest.yaml`.
  var name: String?
  package var location: SourceLocation

  init(output: String, sources: [String], location: SourceLocation) {
    self.output = output
    self.sources = sources
    self.location = location
  }
}
