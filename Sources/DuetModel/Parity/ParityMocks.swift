import DuetSupport

/// `mocks: {bundle, generators}`: the template bundle every row generates with.
public struct ParityMocks: Sendable, Equatable {
  /// The bundle's release tag, recorded on each block's `bundle:` line.
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
  /// the blocks they wrote validate unchanged. The templates sort the args
  /// before joining them, so a row may list them in any order.
  public var fingerprintDescription: String {
    "template=\(template) args=\(Self.sortedByBytes(args).joined(separator: ";"))"
  }

  /// `args` in the order of their UTF-8 bytes (uppercase before lowercase), as
  /// the templates sort them.
  package static func sortedByBytes(_ args: [String]) -> [String] {
    args.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  public func mockEntry(bundle: String?) -> MockEntry {
    var entry = MockEntry(output: output, sources: sources, location: location)
    entry.bundle = bundle
    entry.configDescription = fingerprintDescription
    entry.name = name
    return entry
  }
}
