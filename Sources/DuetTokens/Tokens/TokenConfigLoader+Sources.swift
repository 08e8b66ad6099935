import Foundation
import DuetModel
import DuetSupport

/// `tokens:` in the YAML config: the colours and type (and, when the file has
/// them, the spacing and radius scales) come from W3C DTCG files, while the
/// config keeps what DTCG has no word for: the targets, the contrast pairs and
/// the themes. One file gives dark values in `$extensions["dev.duet"].dark`;
/// or `tokens: {light: FILE, dark: FILE}` gives each appearance a file.
extension TokenConfigLoader {
  package static let tokenSourceKeys = ["light", "dark"]
}

extension TokenConfigLoader.Reader {
  package mutating func tokenSources(_ node: YAMLNode, top: YAMLFields, needsTextStyle: Bool, into config: inout TokenConfig) {
    let context = "the token config: 'tokens'"
    for key in ["colors", "fonts"] where top.has(key) {
      diagnostics.add(
        "the token config: '\(key)' and 'tokens' both give tokens; with 'tokens' the DTCG file holds them, so remove '\(key)'",
        at: top.keyLocation(key))
    }
    var paths: [(path: String, location: SourceLocation)] = []
    if let text = node.scalar, !node.isNull {
      paths = [(text, node.location)]
    } else if let fields = YAMLFields(node, context: context, allowed: TokenConfigLoader.tokenSourceKeys, diagnostics: &diagnostics) {
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
      guard paths.count == 2 else { return }
    } else {
      return
    }

    var documents: [JSONDocument] = []
    for (path, location) in paths {
      let components = path.split(separator: "/").map(String.init)
      if path.hasPrefix("/") || path.hasPrefix("~") || components.contains("..") {
        diagnostics.add("\(context): '\(path)' must be a file inside the tree (relative to its root, no '..')", at: location)
        continue
      }
      guard path.hasSuffix(".json") else {
        diagnostics.add("\(context): '\(path)' must be a DTCG file (*.tokens.json)", at: location)
        continue
      }
      guard let root else {
        diagnostics.add("\(context): DTCG files are read from a tree; load the config from one", at: location)
        continue
      }
      let normalized = normalizedOutputFolder(path)
      let read: Data?
      do {
        read = try PathGuard.read(normalized, in: root)
      } catch {
        diagnostics.add("\(context): \(error)", at: location)
        continue
      }
      guard let data = read else {
        diagnostics.add("\(context): no DTCG file at \(normalized) (paths are relative to the tree root)", at: location)
        continue
      }
      do throws(TokenConfigError) {
        documents.append(try JSONDocument.parse(data, file: normalized))
      } catch {
        diagnostics.add(contentsOf: error.diagnostics)
      }
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
}
