import Foundation
import DuetModel
import DuetSupport

/// Reading `theme-test.yaml`: the same `contrast:` and `themes:` sections the
/// token config may hold, checked against the config's tokens, with messages
/// naming the file they are in. A section may be in one file or the other,
/// never both.
extension TokenConfigLoader {
  static let themeTestKeys = ["version", "contrast", "themes"]
}

extension TokenConfigLoader.Reader {
  mutating func themeTestSettings(
    _ file: ThemeTestFile, top: YAMLFields, into config: inout TokenConfig,
    colorNames: [String: SourceLocation], fontNames: [String: SourceLocation]
  ) {
    let node: YAMLNode
    do {
      node = try YAMLParser.load(file.url, file: file.path)
    } catch {
      diagnostics.add(contentsOf: error.diagnostics)
      return
    }
    let context = "the theme-test settings"
    guard let fields = YAMLFields(node, context: context, allowed: TokenConfigLoader.themeTestKeys, diagnostics: &diagnostics) else {
      return
    }
    if let version = fields.value("version") {
      let number = version.scalar.flatMap { Int($0) }
      if number != 1 {
        diagnostics.add("\(context): 'version' must be 1, got \(version.summary)", at: version.location)
      }
    }
    for key in ["contrast", "themes"] where fields.has(key) && top.has(key) {
      let there = top.keyLocation(key).map { "\(config.path):\($0.line)" } ?? config.path
      diagnostics.add("\(context): '\(key)' is declared here and in \(there); keep it in one of the two files", at: fields.keyLocation(key))
    }
    if fields.has("contrast") && !top.has("contrast") {
      config.contrast = contrast(fields.value("contrast"), config: config, colorNames: colorNames, fontNames: fontNames)
    }
    if fields.has("themes") && !top.has("themes") {
      config.themes = themes(fields.value("themes"), config: config, colorNames: colorNames, inFile: true)
      // The backdrop check in `theme` needs the contrast section, read just above.
    }
  }
}
