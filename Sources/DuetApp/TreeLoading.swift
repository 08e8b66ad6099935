import DuetAdopt
import DuetModel
import Foundation

extension TreeManifest {
  /// The tree's manifest as every command sees it: checked against the standard
  /// built-ins, and, for a tree with only `parity/manifest.yaml`, with the lanes
  /// the tree survey derives.
  public static func load(root: URL) throws(ManifestError) -> TreeManifest {
    try load(root: root, builtins: BuiltinSet.standard.vocabulary, deriveLanes: DerivedLanes.derive)
  }
}
