import DuetSupport

/// `lanes/manifest.yaml`: the lanes of a tree, where its modules live, and its generated mocks.
package struct Manifest: Sendable {
  /// The manifest's path relative to the tree root, as messages name it.
  package var path: String
  var version: Int
  var modules: [String]
  package var mocks: [MockEntry]
  /// `pools:`: a pool's name to how many of its lanes may run at once (ninja's pools).
  package var pools: [String: Int] = [:]
  /// `runs-on:`: each platform's CI runner labels, for the workflows duet writes.
  package var runsOn: [LanePlatform: [String]] = [:]
  /// `sandbox: true`: every shell lane runs in the sandbox, as under `--sandbox`.
  package var sandbox = false
  /// In file order, which is also the order reports list lanes in.
  package var lanes: [Lane] {
    didSet { graph = Manifest.makeGraph(lanes) }
  }
  /// The lane graph, with needs resolved to indices in `lanes`; kept in step with them.
  package private(set) var graph: LaneGraph

  package init(path: String, version: Int = 1, modules: [String] = [], mocks: [MockEntry] = [], lanes: [Lane] = []) {
    self.path = path
    self.version = version
    self.modules = modules
    self.mocks = mocks
    self.lanes = lanes
    self.graph = Manifest.makeGraph(lanes)
  }

  static func makeGraph(_ lanes: [Lane]) -> LaneGraph {
    LaneGraph(names: lanes.map(\.name), needs: lanes.map(\.needs))
  }

  /// The standard place of the manifest under a tree root.
  package static let defaultPath = "lanes/manifest.yaml"

  func lane(named name: String) -> Lane? { lanes.first { $0.name == name } }

}

/// Everything wrong with a manifest, every problem with its position.
package struct ManifestError: DiagnosticError {
  package var diagnostics: [Diagnostic]
  init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
