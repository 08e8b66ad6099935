import Foundation
import DuetSupport

/// What a built-in lane is given: the tree it treats as its root (the lane's
/// `dir`, if any), the words after its command in `run:`, and the built-ins'
/// vocabulary, so a built-in that reads the manifest checks it as duet does.
package struct BuiltinContext: Sendable {
  package var tree: URL
  package var arguments: [String]
  package var vocabulary: [String: [String]]
  /// The lane's environment (the invocation's, with the lane's `env:`): what a
  /// built-in hands the programs it starts (a mock generator), never this process's.
  package var environment: [String: String]
  package init(tree: URL, arguments: [String], vocabulary: [String: [String]], environment: [String: String]) {
    self.tree = tree
    self.arguments = arguments
    self.vocabulary = vocabulary
    self.environment = environment
  }
}

/// The end of a built-in lane, as `ChildRun.End` is a process's: its exit code
/// (0 passes) and the text it reports, which goes to the lane's log exactly as
/// `duet <command>` would print it.
package struct BuiltinEnd: Sendable {
  package var exitCode: Int32
  package var output: String
  package init(exitCode: Int32, output: String) {
    self.exitCode = exitCode
    self.output = output
  }
}

/// A duet command that a lane runs in-process (`run: design-tokens --check`).
package struct BuiltinLane: Sendable {
  var name: String
  /// The options `run:` may give it; the manifest loader refuses any other.
  var options: [String]
  package var run: @Sendable (BuiltinContext) -> BuiltinEnd
  /// Globs (relative to the built-in's tree) of the files its result depends on,
  /// beyond the lane's own `inputs`: they join its fingerprint, so a hand-edited
  /// generated file is never hidden by the cache.
  package var implicitInputs: @Sendable (BuiltinContext) -> [String]

  package init(name: String, options: [String], implicitInputs: @escaping @Sendable (BuiltinContext) -> [String] = { _ in [] }, run: @escaping @Sendable (BuiltinContext) -> BuiltinEnd) {
    self.name = name
    self.options = options
    self.implicitInputs = implicitInputs
    self.run = run
  }
}

/// The built-ins a run knows, handed down as a value by the layer that
/// assembles duet (`DuetApp`), so the runner needs no feature to exist.
/// A `run:` naming any other is a manifest error.
package struct BuiltinSet: Sendable {
  let lanes: [BuiltinLane]
  /// Command to accepted options, as `ManifestLoader` wants it; made once, as
  /// every built-in lane's context and fingerprint hand it on.
  package let vocabulary: [String: [String]]

  package init(_ lanes: [BuiltinLane]) {
    self.lanes = lanes
    vocabulary = Dictionary(lanes.map { ($0.name, $0.options) }, uniquingKeysWith: { first, _ in first })
  }

  package func lane(named name: String) -> BuiltinLane? { lanes.first { $0.name == name } }
}
