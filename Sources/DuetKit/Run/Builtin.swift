import Foundation

/// What a built-in lane is given: the tree it treats as its root (the lane's
/// `dir`, if any) and the words after its command in `run:`.
public struct BuiltinContext: Sendable {
  public var tree: URL
  public var arguments: [String]
  public init(tree: URL, arguments: [String]) {
    self.tree = tree
    self.arguments = arguments
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
  public var implicitInputs: @Sendable (URL) -> [String]

  public init(name: String, options: [String], implicitInputs: @escaping @Sendable (URL) -> [String] = { _ in [] }, run: @escaping @Sendable (BuiltinContext) -> BuiltinResult) {
    self.name = name
    self.options = options
    self.implicitInputs = implicitInputs
    self.run = run
  }
}

/// The built-ins this duet knows. A `run:` naming any other is a manifest error.
public enum BuiltinRegistry {
  public static let all: [BuiltinLane] = [.mocks, .designTokens, .themeTest]

  public static func lane(named name: String) -> BuiltinLane? { all.first { $0.name == name } }

  /// Command to accepted options, as `ManifestLoader` wants it.
  public static var vocabulary: [String: [String]] {
    Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.options) })
  }
}
