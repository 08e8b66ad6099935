import DuetSupport

/// `mocks: {bundle, generators}`: the template bundle every row generates with.
package struct ParityMocks: Sendable, Equatable {
  /// The bundle's release tag, recorded on each block's `bundle:` line.
  var bundle: String?
  package var generators: [ParityMockGenerator] = []
  init(bundle: String?) { self.bundle = bundle }
}

/// One generator row: the committed file, the template that writes it, the roots
/// it is made from and the template's arguments.
package struct ParityMockGenerator: Sendable, Equatable {
  var name: String
  var output: String
  var template: String
  var sources: [String]
  var args: [String]
  var location: SourceLocation

  /// The `config:` description the Duet mock templates write for this row, so
  /// the blocks they wrote validate unchanged. The templates sort the args
  /// before joining them, so a row may list them in any order.
  var fingerprintDescription: String {
    "template=\(template) args=\(Self.sortedByBytes(args).joined(separator: ";"))"
  }

  /// `args` in the order of their UTF-8 bytes (uppercase before lowercase), as
  /// the templates sort them.
  static func sortedByBytes(_ args: [String]) -> [String] {
    args.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  func mockEntry(bundle: String?) -> MockEntry {
    var entry = MockEntry(output: output, sources: sources, location: location)
    entry.bundle = bundle
    entry.configDescription = fingerprintDescription
    entry.name = name
    return entry
  }
}
