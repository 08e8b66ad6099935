import Foundation
import DuetSupport

/// The manifest a command runs on, wherever it comes from: `lanes/manifest.yaml`
/// when the tree has one, else lanes derived from `parity/manifest.yaml`; in both
/// cases with the parity manifest's mock generator rows added to `mocks`.
package struct TreeManifest: Sendable {
  package var manifest: Manifest
  /// The tree's parity manifest, when it has one.
  var parity: ParityManifest?
  /// True when no `lanes/manifest.yaml` exists and the lanes were derived.
  package var isDerived: Bool

  /// Whether `root` holds either manifest, so commands can find their tree by either.
  package static let rootMarkers = [Manifest.defaultPath, ParityManifest.defaultPath]
  /// What marks a tree's root: either manifest, or a `parity/` folder, which a
  /// Duet tree has even when it holds only the token config.
  package static let treeMarkers = rootMarkers + [parityFolder]
  package static let parityFolder = "parity"
  /// The manifest path a tree with a `parity/` folder and neither manifest reports.
  package static let parityFolderPath = parityFolder + "/"

  /// The lanes (and pools) a tree without `lanes/manifest.yaml` gets from its
  /// parity manifest. The survey that finds them lives above this layer, so the
  /// caller hands it in; `nil` skips it when only the mocks matter (the `mocks`
  /// built-in).
  package typealias LaneDeriver = @Sendable (_ root: URL, _ parity: ParityManifest?) -> (lanes: [Lane], pools: [String: Int])

  /// Loads the tree's manifest.
  package static func load(root: URL, builtins: [String: [String]], deriveLanes: LaneDeriver? = nil) throws(ManifestError) -> TreeManifest {
    var parity: ParityManifest?
    if ParityManifestLoader.exists(root: root) {
      do {
        parity = try ParityManifestLoader.load(root: root)
      } catch {
        throw ManifestError(diagnostics: error.diagnostics)
      }
    }
    let hasLanes = FileManager.default.fileExists(atPath: root.appendingPathComponent(Manifest.defaultPath).path)
    var isFolder: ObjCBool = false
    let parityFolder = FileManager.default.fileExists(atPath: root.appendingPathComponent(parityFolder).path, isDirectory: &isFolder) && isFolder.boolValue
    var manifest: Manifest
    if hasLanes || (parity == nil && !parityFolder) {
      manifest = try ManifestLoader.load(root: root, builtins: builtins)
    } else {
      manifest = Manifest(path: parity == nil ? parityFolderPath : ParityManifest.defaultPath)
      if let deriveLanes {
        (manifest.lanes, manifest.pools) = deriveLanes(root, parity)
      }
    }
    manifest.mocks += parity?.mockEntries ?? []
    return TreeManifest(manifest: manifest, parity: parity, isDerived: !hasLanes && (parity != nil || parityFolder))
  }
}
