import Foundation

/// The manifest a command runs on, wherever it comes from: `lanes/manifest.yaml`
/// when the tree has one, else lanes derived from `parity/manifest.yaml`; in both
/// cases with the parity manifest's mock generator rows added to `mocks`.
public struct TreeManifest: Sendable {
  public var manifest: Manifest
  /// The tree's parity manifest, when it has one.
  public var parity: ParityManifest?
  /// True when no `lanes/manifest.yaml` exists and the lanes were derived.
  public var isDerived: Bool

  /// Whether `root` holds either manifest, so commands can find their tree by either.
  public static let rootMarkers = [Manifest.defaultPath, ParityManifest.defaultPath]

  /// Loads the tree's manifest. `deriveLanes: false` skips the tree survey when
  /// only the mocks matter (the `mocks` built-in).
  public static func load(root: URL, builtins: [String: [String]], deriveLanes: Bool = true) throws(ManifestError) -> TreeManifest {
    var parity: ParityManifest?
    if ParityManifestLoader.exists(root: root) {
      do {
        parity = try ParityManifestLoader.load(root: root)
      } catch {
        throw ManifestError(diagnostics: error.diagnostics)
      }
    }
    let hasLanes = FileManager.default.fileExists(atPath: root.appendingPathComponent(Manifest.defaultPath).path)
    var manifest: Manifest
    if hasLanes || parity == nil {
      manifest = try ManifestLoader.load(root: root, builtins: builtins)
    } else {
      manifest = Manifest(path: ParityManifest.defaultPath)
      if deriveLanes {
        let plan = AdoptionPlan(TreeSurvey.survey(root: root, parity: parity))
        manifest.pools = plan.pools
        manifest.lanes = DerivedLanes.lanes(plan)
      }
    }
    manifest.mocks += parity?.mockEntries ?? []
    return TreeManifest(manifest: manifest, parity: parity, isDerived: !hasLanes && parity != nil)
  }
}
