import DuetOutput
import DuetSupport

/// `duet lanes --json`: the manifest's lanes in run order, the modules of the
/// tree, and those no lane covers; the text of `duet lanes` is read from it too.
public struct LanesJSON: Codable, Sendable, Equatable {
  /// A lane as a script sees it; unset settings are null.
  public struct Lane: Codable, Sendable, Equatable {
    public var name: String
    /// `builtin` or `sh`.
    public var kind: String
    public var command: String
    public var needs: [String]
    public var inputs: [String]
    public var covers: [String]
    public var requires: [String]
    public var retries: Int
    /// `tags:`, as declared (empty when none).
    public var tags: [String]
    @Nullable public var timeoutSeconds: Double?
    @Nullable public var dir: String?
    @Nullable public var pool: String?
    @Nullable public var platforms: [String]?
  }

  public struct Module: Codable, Sendable, Equatable {
    public var path: String
    public var foundBy: [String]
    public var coveredBy: [String]
  }

  public var manifest: String
  /// True when the lanes come from `parity/manifest.yaml`.
  public var derived: Bool
  public var lanes: [Lane]
  public var modules: [Module]
  /// The paths of the modules no lane covers.
  public var outsideManifest: [String]

  public init(_ tree: TreeManifest, modules: [DuetModel.Module]) {
    let manifest = tree.manifest
    self.manifest = manifest.path
    derived = tree.isDerived
    lanes = manifest.graph.runOrder().map { index in
      let lane = manifest.lanes[index]
      return Lane(name: lane.name, kind: lane.isBuiltin ? "builtin" : "sh", command: lane.commandText, needs: lane.needs,
                  inputs: lane.inputs, covers: lane.covers, requires: lane.requires, retries: lane.retries, tags: lane.tags,
                  timeoutSeconds: lane.timeout, dir: lane.dir, pool: lane.pool, platforms: lane.platforms.map { $0.map(\.rawValue) })
    }
    self.modules = modules.map { Module(path: $0.path, foundBy: $0.foundBy, coveredBy: $0.coveredBy) }
    outsideManifest = modules.filter { $0.coveredBy.isEmpty }.map(\.path)
  }

  /// The modules no lane covers.
  public var outside: [Module] { modules.filter { $0.coveredBy.isEmpty } }
}
