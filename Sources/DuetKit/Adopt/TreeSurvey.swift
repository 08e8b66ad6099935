import Foundation

/// What `duet init` (and derived lanes) find in a tree: the token config, the
/// parity manifest, the Gradle modules and the Swift packages. It is found the
/// same way `duet lanes` finds modules, so the lanes made from it cover exactly
/// the modules `duet lanes` lists.
public struct TreeSurvey: Sendable {
  public var tokenConfig: TokenConfigFacts?
  public var parity: ParityManifest?
  /// Sorted by folder.
  public var gradleModules: [GradleModule] = []
  /// Sorted by folder.
  public var swiftPackages: [SwiftPackage] = []

  public init() {}

  /// Surveys the tree at `root`; `parity` is its already-loaded parity manifest, if any.
  public static func survey(root: URL, parity: ParityManifest?) -> TreeSurvey {
    var survey = TreeSurvey()
    survey.parity = parity
    survey.tokenConfig = TokenConfigFacts.read(root: root)
    let (settings, packages) = ModuleDiscovery.buildFiles(root: root)
    var modules: [String: GradleModule] = [:]
    for file in settings {
      for module in GradleModule.modules(settingsFile: file, root: root) where modules[module.path] == nil {
        modules[module.path] = module
      }
    }
    survey.gradleModules = modules.values.sorted { Glob.precedes($0.path, $1.path) }
    survey.swiftPackages = packages.compactMap { SwiftPackage.read(manifestFile: $0, root: root) }
      .sorted { Glob.precedes($0.path, $1.path) }
    return survey
  }

  /// Whether `path` lies in `folder` (a folder relative to the root, `.` for the root).
  static func isInside(_ path: String, _ folder: String) -> Bool {
    folder == "." || path == folder || path.hasPrefix(folder + "/")
  }
}

/// What the token config says that decides lanes: whether it declares themes
/// and where its Swift and Kotlin files go. Read as plain YAML, so a config
/// with a mistake still gets its `design-tokens` lane, which reports it.
public struct TokenConfigFacts: Sendable, Equatable {
  public var path: String
  public var themeCount = 0
  public var swiftOutput: String?
  public var kotlinOutput: String?
  /// The first thing wrong with the file as YAML, if anything.
  public var problem: String?

  public static func read(root: URL, path: String = TokenConfig.defaultPath) -> TokenConfigFacts? {
    let url = root.appendingPathComponent(path)
    guard FileManager.default.fileExists(atPath: url.path) else { return nil }
    var facts = TokenConfigFacts(path: path)
    let node: YAMLNode
    do {
      node = try YAMLParser.load(url, file: path)
    } catch {
      facts.problem = error.diagnostics.first?.description ?? "\(error)"
      return facts
    }
    facts.themeCount = node["themes"]?.sequence?.count ?? 0
    facts.swiftOutput = node["swift"]?["output"]?.scalar.map(normalizedFolder)
    facts.kotlinOutput = node["kotlin"]?["output"]?.scalar.map(normalizedFolder)
    return facts
  }

  static func normalizedFolder(_ path: String) -> String {
    path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
  }
}
