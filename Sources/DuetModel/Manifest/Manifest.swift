import DuetSupport

/// `lanes/manifest.yaml`: the lanes of a tree, where its modules live, and its generated mocks.
public struct Manifest: Sendable {
  /// The manifest's path relative to the tree root, as messages name it.
  public var path: String
  public var version: Int
  public var modules: [String]
  public var mocks: [MockEntry]
  /// `pools:`: a pool's name to how many of its lanes may run at once (ninja's pools).
  public var pools: [String: Int] = [:]
  /// `runs-on:`: each platform's CI runner labels, for the workflows duet writes.
  public var runsOn: [LanePlatform: [String]] = [:]
  /// In file order, which is also the order reports list lanes in.
  public var lanes: [Lane] {
    didSet { graph = Manifest.makeGraph(lanes) }
  }
  /// The lane graph, with needs resolved to indices in `lanes`; kept in step with them.
  public private(set) var graph: LaneGraph

  public init(path: String, version: Int = 1, modules: [String] = [], mocks: [MockEntry] = [], lanes: [Lane] = []) {
    self.path = path
    self.version = version
    self.modules = modules
    self.mocks = mocks
    self.lanes = lanes
    self.graph = Manifest.makeGraph(lanes)
  }

  package static func makeGraph(_ lanes: [Lane]) -> LaneGraph {
    LaneGraph(names: lanes.map(\.name), needs: lanes.map(\.needs))
  }

  /// The standard place of the manifest under a tree root.
  public static let defaultPath = "lanes/manifest.yaml"

  public func lane(named name: String) -> Lane? { lanes.first { $0.name == name } }

}

/// Everything wrong with a manifest, every problem with its position.
public struct ManifestError: DiagnosticError {
  public var diagnostics: [Diagnostic]
  public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
