import Foundation
import DuetModel
import DuetSupport

/// `tokens:` in the YAML config: the colours and type (and, when the file has
/// them, the spacing and radius scales) come from W3C DTCG files, while the
/// config keeps what DTCG has no word for: the targets, the contrast pairs and
/// the themes. One file gives dark values in `$extensions["dev.duet"].dark`;
/// or `tokens: {light: FILE, dark: FILE}` gives each appearance a file.
extension TokenConfigLoader {
  static let tokenSourceKeys = ["light", "dark"]
}

extension TokenConfigLoader.Reader {
  /// Reads the DTCG files `tokens:` names into `config`'s colours, type and
  /// scales; nothing is read unless every file is.
  mutating func tokenSources(_ node: YAMLNode, top: YAMLFields, needsTextStyle: Bool, into config: inout TokenConfig) {
    let context = "the token config: 'tokens'"
    for key in ["colors", "fonts"] where top.has(key) {
      diagnostics.add(
        "the token config: '\(key)' and 'tokens' both give tokens; with 'tokens' the DTCG file holds them, so remove '\(key)'",
        at: top.keyLocation(key))
    }
    guard let paths = tokenSourcePaths(node, context: context) else { return }
    var documents: [JSONDocument] = []
    for (path, location) in paths {
      if let document = dtcgDocument(path, at: location, context: context) { documents.append(document) }
    }
    guard documents.count == paths.count, let light = documents.first else { return }
    var reader = DTCGReader(light: light, dark: documents.count > 1 ? documents[1] : nil, needsTextStyle: needsTextStyle)
    let tokens = reader.read()
    diagnostics.add(contentsOf: reader.diagnostics.items)
    config.tokenSources = documents.map(\.file)
    config.colorGroups = tokens.colorGroups
    config.fontGroups = tokens.fontGroups
    for (scale, fromFile) in [(ScaleEmitter.Scale.spacing, tokens.spacing), (.radius, tokens.radius)] where !fromFile.isEmpty {
      if top.has(scale.rawValue) {
        diagnostics.add(
          "the token config: '\(scale.rawValue)' is also a group of \(light.file); keep the scale in one place",
          at: top.keyLocation(scale.rawValue))
      } else if scale == .spacing {
        config.spacing = fromFile
      } else {
        config.radius = fromFile
      }
    }
  }

  /// The one path `tokens: FILE` names, or the light and dark paths of
  /// `tokens: {light: FILE, dark: FILE}`; nil when they are not all there.
  private mutating func tokenSourcePaths(_ node: YAMLNode, context: String) -> [(path: String, location: SourceLocation)]? {
    if let text = node.scalar, !node.isNull { return [(text, node.location)] }
    guard let fields = YAMLFields(node, context: context, allowed: TokenConfigLoader.tokenSourceKeys, diagnostics: &diagnostics) else {
      return nil
    }
    var paths: [(path: String, location: SourceLocation)] = []
    for key in TokenConfigLoader.tokenSourceKeys {
      guard let value = fields.value(key) else {
        diagnostics.add("\(context): missing '\(key)' (the DTCG file of the \(key) appearance)", at: node.location)
        continue
      }
      guard let text = value.scalar, !value.isNull else {
        diagnostics.add("\(context): '\(key)' must be a path, got \(value.summary)", at: value.location)
        continue
      }
      paths.append((text, value.location))
    }
    return paths.count == 2 ? paths : nil
  }

  /// The DTCG file at `path` in the tree, parsed; nil, with the reason
  /// reported, when the path leaves the tree or the file is missing or bad.
  private mutating func dtcgDocument(_ path: String, at location: SourceLocation, context: String) -> JSONDocument? {
    let components = path.split(separator: "/").map(String.init)
    if path.hasPrefix("/") || path.hasPrefix("~") || components.contains("..") {
      diagnostics.add("\(context): '\(path)' must be a file inside the tree (relative to its root, no '..')", at: location)
      return nil
    }
    guard path.hasSuffix(".json") else {
      diagnostics.add("\(context): '\(path)' must be a DTCG file (*.tokens.json)", at: location)
      return nil
    }
    guard let root else {
      diagnostics.add("\(context): DTCG files are read from a tree; load the config from one", at: location)
      return nil
    }
    let normalized = normalizedOutputFolder(path)
    let read: Data?
    do {
      read = try PathGuard.read(normalized, in: root)
    } catch {
      diagnostics.add("\(context): \(error)", at: location)
      return nil
    }
    guard let data = read else {
      diagnostics.add("\(context): no DTCG file at \(normalized) (paths are relative to the tree root)", at: location)
      return nil
    }
    do throws(TokenConfigError) {
      return try JSONDocument.parse(data, file: normalized)
    } catch {
      diagnostics.add(contentsOf: error.diagnostics)
      return nil
    }
  }
}
