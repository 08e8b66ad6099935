import Foundation
import DuetSupport

/// Reads `parity/manifest.yaml` with libyaml and checks its shape, reporting every
/// problem at its `file:line:column`. The top level is strict, as in the Duet
/// toolchain; feature entries and generator rows accept keys duet does not read,
/// since the toolchain carries those into its plan.
package enum ParityManifestLoader {
  static let presentationKeys = ["waivers", "islands"]
  static let mocksKeys = ["bundle", "generators"]

  /// Loads the manifest at `path` under `root`.
  package static func load(root: URL, path: String = ParityManifest.defaultPath) throws(ParityManifestError) -> ParityManifest {
    let node: YAMLNode
    do {
      node = try YAMLParser.load(root.appendingPathComponent(path), file: path)
    } catch {
      throw ParityManifestError(diagnostics: error.diagnostics)
    }
    return try parse(node, path: path)
  }

  /// Whether the tree has a parity manifest at all.
  package static func exists(root: URL, path: String = ParityManifest.defaultPath) -> Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
  }

  /// Checks an already-parsed document; the pure core of `load`.
  static func parse(_ node: YAMLNode, path: String) throws(ParityManifestError) -> ParityManifest {
    var diagnostics = DiagnosticList()
    var manifest = ParityManifest(path: path)
    guard let pairs = node.mapping else {
      let what = node.isNull ? "an empty file" : node.summary
      diagnostics.add("\(path) must be a mapping with a 'features' section, got \(what)", at: node.location)
      throw ParityManifestError(diagnostics: diagnostics.items)
    }
    let known = ParityManifest.topLevelKeys.sorted().joined(separator: ", ")
    var sections: [String: YAMLNode] = [:]
    var keyLocations: [String: SourceLocation] = [:]
    for pair in pairs {
      guard let key = pair.key.scalar else { continue }
      guard ParityManifest.topLevelKeys.contains(key) else {
        diagnostics.add("unknown top-level key '\(key)'\(Suggestion.hint(for: key, in: ParityManifest.topLevelKeys)) (known: \(known))", at: pair.key.location)
        continue
      }
      sections[key] = pair.value
      keyLocations[key] = pair.key.location
    }

    if let features = sections["features"] {
      manifest.features = parseFeatures(features, diagnostics: &diagnostics)
    } else {
      diagnostics.add("missing 'features' (write 'features:' with no entries for a tree that has none yet)", at: node.location)
    }
    if let chains = sections["chains"] {
      manifest.chains = strings(chains, what: "'chains'", diagnostics: &diagnostics)
    }
    if let presentation = sections["presentation"] {
      (manifest.waiverCount, manifest.islandCount) = parsePresentation(presentation, diagnostics: &diagnostics)
    }
    if let mocks = sections["mocks"] {
      manifest.mocks = parseMocks(mocks, at: keyLocations["mocks"] ?? mocks.location, diagnostics: &diagnostics)
    }
    if let runner = sections["replayRunner"] {
      if let text = runner.scalar, !runner.isNull {
        manifest.replayRunner = text
      } else {
        diagnostics.add("'replayRunner' must be a folder (the Swift package root owning Sources/replay-runner), got \(runner.summary)", at: runner.location)
      }
    }
    guard diagnostics.isEmpty else { throw ParityManifestError(diagnostics: diagnostics.items) }
    return manifest
  }

  static func parseFeatures(_ node: YAMLNode, diagnostics: inout DiagnosticList) -> [ParityFeature] {
    if node.isNull { return [] }
    guard let pairs = node.mapping else {
      diagnostics.add("'features' must be a mapping of feature names to entries, got \(node.summary)", at: node.location)
      return []
    }
    var features: [ParityFeature] = []
    for pair in pairs {
      guard let name = pair.key.scalar else { continue }
      let label = "feature '\(name)'"
      guard let fields = pair.value.mapping else {
        diagnostics.add("\(label) must be a mapping with 'swift:' and/or 'kotlin:', got \(pair.value.summary)", at: pair.value.location)
        continue
      }
      var feature = ParityFeature(name: name, location: pair.key.location)
      for field in fields {
        guard let key = field.key.scalar else { continue }
        switch key {
        case "swift", "kotlin":
          guard let text = field.value.scalar, !field.value.isNull, !text.isEmpty else {
            diagnostics.add("\(label): '\(key)' must be a source path relative to the tree root, got \(field.value.summary)", at: field.value.location)
            continue
          }
          if key == "swift" { feature.swift = text } else { feature.kotlin = text }
        case "fixtures":
          feature.fixtures = strings(field.value, what: "\(label): 'fixtures'", diagnostics: &diagnostics).map(\.value)
        default:
          if let text = field.value.scalar { feature.otherKeys[key] = text }
        }
      }
      if feature.swift == nil && feature.kotlin == nil && !fields.contains(where: { ["swift", "kotlin"].contains($0.key.scalar) }) {
        diagnostics.add("\(label): declares neither 'swift' nor 'kotlin'; a feature has at least one side", at: pair.key.location)
      }
      features.append(feature)
    }
    return features
  }

  static func parsePresentation(_ node: YAMLNode, diagnostics: inout DiagnosticList) -> (waivers: Int, islands: Int) {
    if node.isNull { return (0, 0) }
    guard let fields = YAMLFields(node, context: "'presentation'", allowed: presentationKeys, diagnostics: &diagnostics) else { return (0, 0) }
    func entries(_ key: String) -> Int {
      guard let value = fields.value(key), !value.isNull else { return 0 }
      guard let items = value.sequence else {
        diagnostics.add("'presentation': '\(key)' must be a list of entries or [], got \(value.summary)", at: value.location)
        return 0
      }
      for item in items where item.mapping == nil {
        diagnostics.add("'presentation': every item of '\(key)' must be a mapping, got \(item.summary)", at: item.location)
      }
      return items.count
    }
    return (entries("waivers"), entries("islands"))
  }

  static func parseMocks(_ node: YAMLNode, at keyLocation: SourceLocation, diagnostics: inout DiagnosticList) -> ParityMocks {
    var mocks = ParityMocks(bundle: nil)
    if node.isNull { return mocks }
    guard let fields = YAMLFields(node, context: "'mocks'", allowed: mocksKeys, diagnostics: &diagnostics) else { return mocks }
    mocks.bundle = fields.string("bundle", diagnostics: &diagnostics)
    guard let generators = fields.value("generators"), !generators.isNull else { return mocks }
    guard let rows = generators.mapping else {
      diagnostics.add("'mocks': 'generators' must be a mapping of row names to rows, got \(generators.summary)", at: generators.location)
      return mocks
    }
    for row in rows {
      guard let name = row.key.scalar else { continue }
      if let generator = parseGenerator(name: name, row.value, at: row.key.location, diagnostics: &diagnostics) {
        mocks.generators.append(generator)
      }
    }
    if !rows.isEmpty && mocks.bundle == nil && !fields.has("bundle") {
      diagnostics.add("'mocks': missing 'bundle' (the template bundle's release tag), required once a generator row exists", at: keyLocation)
    }
    return mocks
  }

  static func parseGenerator(name: String, _ node: YAMLNode, at location: SourceLocation, diagnostics: inout DiagnosticList) -> ParityMockGenerator? {
    let label = "mock row '\(name)'"
    guard let pairs = node.mapping else {
      diagnostics.add("\(label) must be a mapping with 'output', 'template' and 'sources', got \(node.summary)", at: node.location)
      return nil
    }
    var values: [String: YAMLNode] = [:]
    for pair in pairs { if let key = pair.key.scalar { values[key] = pair.value } }
    var ok = true
    func text(_ key: String, what: String) -> String? {
      guard let value = values[key] else {
        diagnostics.add("\(label): missing '\(key)' (\(what))", at: location)
        ok = false
        return nil
      }
      guard let text = value.scalar, !value.isNull, !text.isEmpty, !text.contains(where: \.isNewline) else {
        diagnostics.add("\(label): '\(key)' must be one line of text (\(what)), got \(value.summary)", at: value.location)
        ok = false
        return nil
      }
      return text
    }
    let output = text("output", what: "the committed file, relative to the tree root")
    let template = text("template", what: "the template file inside the bundle")
    if let package = values["package"] {
      diagnostics.add("\(label): 'package' roots are derived by 'swift package dump-package', which duet does not run; list the roots under 'sources:' instead", at: package.location)
      ok = false
    }
    var sources: [String] = []
    if let value = values["sources"] {
      sources = strings(value, what: "\(label): 'sources'", diagnostics: &diagnostics).map(\.value)
      if sources.isEmpty && ok {
        diagnostics.add("\(label): 'sources' must name at least one root", at: value.location)
        ok = false
      }
    } else if values["package"] == nil {
      diagnostics.add("\(label): missing 'sources' (the roots the file is made from)", at: location)
      ok = false
    }
    var args: [String] = []
    if let value = values["args"] {
      for arg in strings(value, what: "\(label): 'args'", diagnostics: &diagnostics) {
        if !arg.value.contains("=") || arg.value.hasPrefix("=") {
          diagnostics.add("\(label): every item of 'args' must be key=value, got \"\(arg.value)\"", at: arg.location)
          ok = false
        } else if arg.value.contains(where: \.isNewline) {
          diagnostics.add("\(label): an item of 'args' must be one line", at: arg.location)
          ok = false
        }
        args.append(arg.value)
      }
    }
    guard ok, let output, let template else { return nil }
    return ParityMockGenerator(name: name, output: output, template: template, sources: sources, args: args, location: location)
  }

  /// A list of strings (or nothing); a diagnostic for anything else.
  static func strings(_ node: YAMLNode, what: String, diagnostics: inout DiagnosticList) -> [Located<String>] {
    if node.isNull { return [] }
    guard let items = node.sequence else {
      diagnostics.add("\(what) must be a list, got \(node.summary)", at: node.location)
      return []
    }
    var result: [Located<String>] = []
    for item in items {
      if let text = item.scalar, !item.isNull {
        result.append(Located(text, at: item.location))
      } else {
        diagnostics.add("every item of \(what) must be a string, got \(item.summary)", at: item.location)
      }
    }
    return result
  }
}
