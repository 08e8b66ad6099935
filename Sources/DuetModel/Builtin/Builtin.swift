import Foundation
import DuetSupport

/// What a built-in lane is given: the tree it treats as its root (the lane's
/// `dir`, if any), the words after its command in `run:`, and the built-ins'
/// vocabulary, so a built-in that reads the manifest checks it as duet does.
public struct BuiltinContext: Sendable {
  public var tree: URL
  public var arguments: [String]
  public var vocabulary: [String: [String]]
  /// The lane's environment (the invocation's, with the lane's `env:`): what a
  /// built-in hands the programs it starts (a mock generator), never this process's.
  public var environment: [String: String]
  public init(tree: URL, arguments: [String], vocabulary: [String: [String]], environment: [String: String]) {
    self.tree = tree
    self.arguments = arguments
    self.vocabulary = vocabulary
    self.environment = environment
  }
}

/// The end of a built-in lane: its exit code (0 passes) and the text it reports,
/// which goes to the lane's log exactly as `duet <command>` would print it.
public struct BuiltinResult: Sendable {
  public var exitCode: Int32
  public var output: String
  public init(exitCode: Int32, output: String) {
    self.exitCode = exitCode
    self.output = output
  }
}

/// A duet command that a lane runs in-process (`run: design-tokens --check`).
public struct BuiltinLane: Sendable {
  public var name: String
  /// The options `run:` may give it; the manifest loader refuses any other.
  public var options: [String]
  public var run: @Sendable (BuiltinContext) -> BuiltinResult
  /// Globs (relative to the built-in's tree) of the files its result depends on,
  /// beyond the lane's own `inputs`: they join its fingerprint, so a hand-edited
  /// generated file is never hidden by the cache.
  public var implicitInputs: @Sendable (BuiltinContext) -> [String]

  public init(name: String, options: [String], implicitInputs: @escaping @Sendable (BuiltinContext) -> [String] = { _ in [] }, run: @escaping @Sendable (BuiltinContext) -> BuiltinResult) {
    self.name = name
    self.options = options
    self.implicitInputs = implicitInputs
    self.run = run
  }
}

/// The built-ins a run knows, handed down as a value by the layer that
/// assembles duet (`DuetApp`), so the runner needs no feature to exist.
/// A `run:` naming any other is a manifest error.
public struct BuiltinSet: Sendable {
  public let lanes: [BuiltinLane]
  /// Command to accepted options, as `ManifestLoader` wants it; made once, as
  /// every built-in lane's context and fingerprint hand it on.
  public let vocabulary: [String: [String]]

  public init(_ lanes: [BuiltinLane]) {
    self.lanes = lanes
    vocabulary = Dictionary(lanes.map { ($0.name, $0.options) }, uniquingKeysWith: { first, _ in first })
  }

  public func lane(named name: String) -> BuiltinLane? { lanes.first { $0.name == name } }
}
