import DuetOutput
import DuetSupport

/// `duet lanes --json`: the manifest's lanes in run order, the modules of the
/// tree, and those no lane covers; the text of `duet lanes` is read from it too.
package struct LanesJSON: Codable, Sendable, Equatable {
  /// A lane as a script sees it; unset settings are null.
  package struct Lane: Codable, Sendable, Equatable {
    var name: String
    /// `builtin` or `sh`.
    var kind: String
    var command: String
    var needs: [String]
    var inputs: [String]
    var covers: [String]
    var requires: [String]
    var retries: Int
    /// `tags:`, as declared (empty when none).
    var tags: [String]
    /// `reports:`: globs of the JUnit XML files the lane writes (empty when none).
    var reports: [String]
    /// `outputs:`: the files and folders the lane writes, which the cache keeps (empty when none).
    var outputs: [String]
    @Nullable var timeoutSeconds: Double?
    @Nullable var dir: String?
    @Nullable var pool: String?
    @Nullable var platforms: [String]?
  }

  struct Module: Codable, Sendable, Equatable {
    var path: String
    var foundBy: [String]
    var coveredBy: [String]
  }

  package var manifest: String
  /// True when the lanes come from `parity/manifest.yaml`.
  package var derived: Bool
  package var lanes: [Lane]
  var modules: [Module]
  /// The paths of the modules no lane covers.
  var outsideManifest: [String]

  package init(_ tree: TreeManifest, modules: [DuetModel.Module]) {
    let manifest = tree.manifest
    self.manifest = manifest.path
    derived = tree.isDerived
    lanes = manifest.graph.runOrder().map { index in
      let lane = manifest.lanes[index]
      return Lane(name: lane.name, kind: lane.isBuiltin ? "builtin" : "sh", command: lane.commandText, needs: lane.needs,
                  inputs: lane.inputs, covers: lane.covers, requires: lane.requires, retries: lane.retries, tags: lane.tags,
                  reports: lane.reports, outputs: lane.outputs,
                  timeoutSeconds: lane.timeout, dir: lane.dir, pool: lane.pool, platforms: lane.platforms.map { $0.map(\.rawValue) })
    }
    self.modules = modules.map { Module(path: $0.path, foundBy: $0.foundBy, coveredBy: $0.coveredBy) }
    outsideManifest = modules.filter { $0.coveredBy.isEmpty }.map(\.path)
  }

  /// The modules no lane covers.
  var outside: [Module] { modules.filter { $0.coveredBy.isEmpty } }

  /// `duet lanes`' table: a lane a row, in run order.
  package static let laneHeader: [TerminalLine] = ["lane", "step", "needs", "timeout", "retries", "command"]

  package var laneRows: [[TerminalLine]] {
    lanes.map { lane -> [TerminalLine] in
      [
        "\(lane.name)",
        lane.kind == "builtin" ? "built-in" : "sh",
        lane.needs.isEmpty ? "-" : "\(lane.needs.joined(separator: ","))",
        "\(lane.timeoutSeconds.map(DurationText.formatTimeout) ?? "default")",
        "\(lane.retries)",
        "\(lane.command)",
      ]
    }
  }

  /// The modules no lane covers, a row each: its path and what found it.
  package var outsideRows: [[TerminalLine]] {
    outside.map { ["\($0.path)", "\($0.foundBy.joined(separator: ", "))"] }
  }
}
