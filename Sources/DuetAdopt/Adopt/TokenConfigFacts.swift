import Foundation
import DuetTokens
import DuetSupport

/// What the token config says that decides lanes: whether it declares themes
/// and where its Swift and Kotlin files go. Read as plain YAML, so a config
/// with a mistake still gets its `design-tokens` lane, which reports it.
struct TokenConfigFacts: Sendable, Equatable {
  var path: String
  var themeCount = 0
  /// The file the themes are declared in: the config, or `theme-test.yaml` beside it.
  var themesPath: String?
  var swiftOutput: String?
  var kotlinOutput: String?
  /// The first thing wrong with the file as YAML, if anything.
  var problem: String?

  static func read(root: URL, path: String = TokenConfig.defaultPath) -> TokenConfigFacts? {
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
    if facts.themeCount > 0 { facts.themesPath = path }
    // Themes kept beside the config, in theme-test.yaml, count the same.
    let beside = ThemeTestFile.beside(configURL: url, configPath: path)
    if facts.themeCount == 0, FileManager.default.fileExists(atPath: beside.url.path) {
      facts.themeCount = ((try? YAMLParser.load(beside.url, file: beside.path))?["themes"]?.sequence?.count) ?? 0
      if facts.themeCount > 0 { facts.themesPath = beside.path }
    }
    facts.swiftOutput = node["swift"]?["output"]?.scalar.map(normalizedOutputFolder)
    facts.kotlinOutput = node["kotlin"]?["output"]?.scalar.map(normalizedOutputFolder)
    return facts
  }
}
