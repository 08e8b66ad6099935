import DuetAdopt
import DuetModel
import Foundation

extension TreeManifest {
  /// The tree's manifest as every command sees it: checked against the standard
  /// built-ins, and, for a tree with only `parity/manifest.yaml`, with the lanes
  /// the tree survey derives.
  static func load(root: URL) throws(ManifestError) -> TreeManifest {
    try load(root: root, builtins: BuiltinSet.standard.vocabulary, deriveLanes: DerivedLanes.derive)
  }

  /// The tree a command works on, found once per command: `override` (`--root`,
  /// taken as given) or the nearest folder from `workingDirectory` up that holds
  /// `lanes/manifest.yaml`, `parity/manifest.yaml` or a `parity/` folder.
  static func root(from workingDirectory: URL, override: String?) throws -> URL {
    do {
      return try TreeRoot.find(from: workingDirectory, override: override, markers: treeMarkers)
    } catch {
      guard case .notFound(let start) = error else { throw error }
      throw TreeNotFound(start: start)
    }
  }
}

/// The tree a command works on (`TreeManifest.root`): `override` (`--root`) as
/// given, or the nearest folder from `workingDirectory` up with a manifest.
/// Throws `TreeNotFound`.
func findTree(from workingDirectory: URL, override: String?) throws -> URL {
  try TreeManifest.root(from: workingDirectory, override: override)
}

/// No tree here or above; the executable prints it as `duet <command>: error: ...` with exit 2.
struct TreeNotFound: Error, CustomStringConvertible, Sendable {
  var start: String
  var description: String {
    "no \(Manifest.defaultPath) or \(ParityManifest.defaultPath) in \(start) or any folder above it; run duet inside a tree, pass --root DIR, or write a manifest with 'duet init'"
  }
}
