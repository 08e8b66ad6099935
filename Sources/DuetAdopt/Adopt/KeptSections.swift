import Foundation
import DuetModel
import DuetSupport

/// The parts of an existing `lanes/manifest.yaml` that `duet init --force`
/// carries into the file it writes: the `modules:` globs and `mocks:` entries.
/// No survey can rebuild them, so replacing the lanes must not lose them.
package struct KeptSections: Sendable, Equatable {
  var modules: [String] = []
  var mocks: [MockEntry] = []

  var isEmpty: Bool { modules.isEmpty && mocks.isEmpty }

  /// Why the sections cannot be kept: the file is not YAML duet can read (so
  /// whether it has them is unknown), or they are there with errors.
  package enum Failure: Error, Sendable {
    case unreadable([Diagnostic])
    case broken([Diagnostic])
  }

  /// Reads the two sections of the manifest at `path`; its lanes may be broken
  /// (that is often why it is being replaced), but errors in these sections are
  /// thrown, since writing over them would drop what they say.
  package static func read(root: URL, path: String = Manifest.defaultPath) throws(Failure) -> KeptSections {
    let node: YAMLNode
    do {
      node = try YAMLParser.load(root.appendingPathComponent(path), file: path)
    } catch {
      throw .unreadable(error.diagnostics)
    }
    var diagnostics = DiagnosticList()
    var kept = KeptSections()
    kept.mocks = ManifestLoader.parseMocks(node["mocks"], diagnostics: &diagnostics)
    if let modules = node["modules"], !modules.isNull {
      if let items = modules.sequence, items.allSatisfy({ $0.scalar != nil && !$0.isNull }) {
        kept.modules = items.compactMap(\.scalar)
      } else {
        diagnostics.add("the manifest: 'modules' must be a list of folders or globs, got \(modules.summary)", at: modules.location)
      }
    }
    guard diagnostics.isEmpty else { throw .broken(diagnostics.items) }
    return kept
  }
}
