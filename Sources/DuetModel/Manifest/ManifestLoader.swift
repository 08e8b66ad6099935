import Foundation
import DuetSupport

/// Reads `lanes/manifest.yaml` with libyaml and checks all of it, reporting every
/// problem with its `file:line:column` rather than stopping at the first.
package enum ManifestLoader {
  static let topLevelKeys = ["version", "modules", "mocks", "pools", "runs-on", "sandbox", "lanes"]
  static let laneKeys = ["name", "run", "sh", "needs", "inputs", "covers", "timeout", "retries", "env", "dir", "requires", "pool", "platforms",
                                "env-inputs", "runs-on", "tags", "outputs", "reports", "sandbox", "network"]
  /// The deepest a pool may be: more lanes than this never run at once anyway.
  static let maximumPoolDepth = 1024
  static let mockKeys = ["output", "sources", "include", "generator", "bundle"]
  static let newestVersion = 1

  /// Loads the manifest at `path` under `root`. `builtins` maps each built-in
  /// command to the options it accepts, so `run:` is checked before anything runs.
  package static func load(root: URL, path: String = Manifest.defaultPath, builtins: [String: [String]]) throws(ManifestError) -> Manifest {
    let node: YAMLNode
    let file = root.appendingPathComponent(path)
    do {
      node = try YAMLParser.load(file, file: path)
    } catch {
      let text = FileManager.default.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self) } ?? ""
      throw ManifestError(diagnostics: ShellValueHint.annotate(error.diagnostics, text: text))
    }
    return try parse(node, path: path, builtins: builtins)
  }

  /// Checks an already-parsed document; the pure core of `load`.
  static func parse(_ node: YAMLNode, path: String, builtins: [String: [String]]) throws(ManifestError) -> Manifest {
    var diagnostics = DiagnosticList()
    var manifest = Manifest(path: path)
    guard let top = YAMLFields(node, context: "the manifest", allowed: topLevelKeys, diagnostics: &diagnostics) else {
      throw ManifestError(diagnostics: diagnostics.items)
    }

    if let version = top.value("version") {
      if let text = version.scalar, let number = Int(text), number >= 1 {
        if number > newestVersion {
          diagnostics.add("manifest version \(number) is newer than this duet understands (\(newestVersion)); upgrade duet", at: version.location)
        }
        manifest.version = number
      } else {
        diagnostics.add("the manifest: 'version' must be 1, got \(version.summary)", at: version.location)
      }
    } else {
      diagnostics.add("the manifest: missing 'version' (write 'version: 1' at the top)", at: node.location)
    }

    manifest.modules = insideTree(top.strings("modules", diagnostics: &diagnostics), key: "modules", label: "the manifest", diagnostics: &diagnostics)
    manifest.mocks = parseMocks(top.value("mocks"), diagnostics: &diagnostics)
    manifest.pools = parsePools(top.value("pools"), diagnostics: &diagnostics)
    manifest.runsOn = parseRunsOn(top.value("runs-on"), diagnostics: &diagnostics)
    manifest.sandbox = flag(top, "sandbox", label: "the manifest", diagnostics: &diagnostics) ?? false
    manifest.lanes = parseLanes(top.value("lanes"), builtins: builtins, pools: manifest.pools, diagnostics: &diagnostics)

    if let cycle = manifest.graph.findCycle() {
      let names = cycle.map { manifest.lanes[$0].name }
      let first = manifest.lanes[cycle[0]]
      diagnostics.add("lane '\(first.name)': needs form a cycle: \(names.joined(separator: " -> "))", at: first.location)
    }
    guard diagnostics.isEmpty else { throw ManifestError(diagnostics: diagnostics.items) }
    return manifest
  }

  static func parseLanes(_ node: YAMLNode?, builtins: [String: [String]], pools: [String: Int] = [:], diagnostics: inout DiagnosticList) -> [Lane] {
    guard let node else { return [] }
    if node.isNull { return [] }
    guard let items = node.sequence else {
      diagnostics.add("the manifest: 'lanes' must be a list of lanes, got \(node.summary)", at: node.location)
      return []
    }
    var lanes: [Lane] = []
    var firstDeclared: [String: SourceLocation] = [:]
    var needLocations: [[Located<String>]] = []
    var reports: [[Located<String>]] = []
    for (index, item) in items.enumerated() {
      let label = item["name"]?.scalar.map { "lane '\($0)'" } ?? "lane \(index + 1)"
      guard let fields = YAMLFields(item, context: label, allowed: laneKeys, diagnostics: &diagnostics) else { continue }
      guard let name = laneName(fields, of: item, label: label, firstDeclared: &firstDeclared, diagnostics: &diagnostics) else { continue }
      let step = laneStep(fields, of: item, label: label, builtins: builtins, diagnostics: &diagnostics)
      var lane = Lane(name: name, step: step ?? .shell(""), location: item.location)
      let needs = fields.strings("needs", diagnostics: &diagnostics) ?? []
      lane.needs = needs.map(\.value)
      reports.append(readLaneFields(fields, into: &lane, label: label, pools: pools, diagnostics: &diagnostics))
      lanes.append(lane)
      needLocations.append(needs)
    }

    let names = lanes.map(\.name)
    let known = Set(names)
    for (lane, needs) in zip(lanes, needLocations) {
      for need in needs where !known.contains(need.value) {
        diagnostics.add("lane '\(lane.name)': needs unknown lane '\(need.value)'\(Suggestion.hint(for: need.value, in: names))", at: need.location)
      }
    }
    overlappingOutputs(lanes, diagnostics: &diagnostics)
    overlappingReports(lanes, reports: reports, pools: pools, diagnostics: &diagnostics)
    return lanes
  }

  /// One lane writes a path: two lanes' `outputs:` may not name one path or
  /// one inside the other. Otherwise each lane's cache entry holds the other's
  /// files as it last saw them, and every restore puts back a stale one (the
  /// tree then differs from run to run, though every lane is `cached`).
  static func overlappingOutputs(_ lanes: [Lane], diagnostics: inout DiagnosticList) {
    var owner: [String: Int] = [:]
    for (index, lane) in lanes.enumerated() {
      for path in lane.outputs where owner[path] == nil || owner[path] == index { owner[path] = owner[path] ?? index }
    }
    var reported = Set<[Int]>()
    for (index, lane) in lanes.enumerated() {
      for path in lane.outputs {
        var ancestors = [path]
        var parts = path.split(separator: "/")
        while parts.count > 1 {
          parts.removeLast()
          ancestors.append(parts.joined(separator: "/"))
        }
        for ancestor in ancestors {
          guard let other = owner[ancestor], other != index, reported.insert([min(index, other), max(index, other)]).inserted else { continue }
          let first = lanes[min(index, other)], second = lanes[max(index, other)]
          let how = ancestor == path ? "both write \(path)" : "'\(lanes[other].name)' writes \(ancestor), which holds \(path)"
          diagnostics.add("lane '\(second.name)': its outputs overlap those of lane '\(first.name)' (line \(first.location.line)): \(how); one lane writes a path, so each lane's cache entry holds what it wrote", at: second.location)
        }
      }
    }
  }

  /// `platforms: [macos]`: known names, none twice, at least one.
  static func platforms(_ values: [Located<String>], label: String, at location: SourceLocation?, diagnostics: inout DiagnosticList) -> [LanePlatform]? {
    let known = LanePlatform.allCases.map(\.rawValue)
    var result: [LanePlatform] = []
    for value in values {
      guard let platform = LanePlatform(rawValue: value.value) else {
        diagnostics.add("\(label): 'platforms' names unknown platform '\(value.value)', not one of \(known.joined(separator: ", "))\(Suggestion.hint(for: value.value, in: known))", at: value.location)
        continue
      }
      if !result.contains(platform) { result.append(platform) }
    }
    if values.isEmpty {
      diagnostics.add("\(label): 'platforms' must name at least one of \(known.joined(separator: ", ")); leave it out for a lane that runs anywhere", at: location)
      return nil
    }
    return result
  }

  /// `pools: {gradle: 1}`: each name to a depth from 1 to `maximumPoolDepth`.
  static func parsePools(_ node: YAMLNode?, diagnostics: inout DiagnosticList) -> [String: Int] {
    guard let node, !node.isNull else { return [:] }
    guard let pairs = node.mapping else {
      diagnostics.add("the manifest: 'pools' must be a mapping of pool names to depths, such as 'pools: {gradle: 1}', got \(node.summary)", at: node.location)
      return [:]
    }
    var pools: [String: Int] = [:]
    for pair in pairs {
      guard let name = pair.key.scalar, isValidName(name) else {
        diagnostics.add("the manifest: a pool name may hold only letters, digits, '.', '_' and '-', got \(pair.key.summary)", at: pair.key.location)
        continue
      }
      guard pools[name] == nil else {
        diagnostics.add("the manifest: pool '\(name)' is declared twice", at: pair.key.location)
        continue
      }
      guard let text = pair.value.scalar, case .scalar(_, plain: true) = pair.value.kind, let depth = Int(text), depth >= 1, depth <= maximumPoolDepth else {
        diagnostics.add("pool '\(name)': the depth must be a whole number from 1 to \(maximumPoolDepth), got \(pair.value.summary)", at: pair.value.location)
        continue
      }
      pools[name] = depth
    }
    return pools
  }

  /// Top-level `runs-on: {macos: macos-14, linux: ubuntu-latest}`: each
  /// platform's CI runner labels, a label or a list.
  static func parseRunsOn(_ node: YAMLNode?, diagnostics: inout DiagnosticList) -> [LanePlatform: [String]] {
    guard let node, !node.isNull else { return [:] }
    guard let pairs = node.mapping else {
      diagnostics.add("the manifest: 'runs-on' must map platforms to runner labels, such as 'runs-on: {macos: macos-14, linux: ubuntu-latest}', got \(node.summary)", at: node.location)
      return [:]
    }
    var result: [LanePlatform: [String]] = [:]
    for pair in pairs {
      guard let key = pair.key.scalar, let platform = LanePlatform(rawValue: key) else {
        diagnostics.add("the manifest: 'runs-on' keys are platforms (macos, linux), got \(pair.key.summary)", at: pair.key.location)
        continue
      }
      if let label = pair.value.scalar, !pair.value.isNull, !label.isEmpty {
        if CITemplateText.check(label, key: "runs-on.\(key)", owner: "the manifest", at: pair.value.location, diagnostics: &diagnostics) {
          result[platform] = [label]
        }
      } else if let items = pair.value.sequence, !items.isEmpty, items.allSatisfy({ $0.scalar.map { !$0.isEmpty } ?? false }) {
        let safe = items.filter { CITemplateText.check($0.scalar ?? "", key: "runs-on.\(key)", owner: "the manifest", at: $0.location, diagnostics: &diagnostics) }
        if safe.count == items.count { result[platform] = items.compactMap(\.scalar) }
      } else {
        diagnostics.add("the manifest: 'runs-on.\(key)' must be a runner label or a list of labels, got \(pair.value.summary)", at: pair.value.location)
      }
    }
    return result
  }

  static func builtinStep(_ text: String, label: String, at location: SourceLocation, builtins: [String: [String]], diagnostics: inout DiagnosticList) -> Lane.Step? {
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let command = words.first else { return nil }
    guard let options = builtins[command] else {
      let known = builtins.keys.sorted()
      let list = known.isEmpty ? "none yet; use 'sh' for a shell command" : known.joined(separator: ", ")
      diagnostics.add("\(label): unknown built-in '\(command)'\(Suggestion.hint(for: command, in: known)) (built-ins: \(list))", at: location)
      return nil
    }
    for word in words.dropFirst() where !options.contains(word) {
      diagnostics.add("\(label): built-in '\(command)' does not take '\(word)'\(Suggestion.hint(for: word, in: options)) (it takes: \(options.joined(separator: ", ").nonEmpty ?? "no options"))", at: location)
      return nil
    }
    return .builtin(command: command, arguments: Array(words.dropFirst()))
  }

  package static func parseMocks(_ node: YAMLNode?, diagnostics: inout DiagnosticList) -> [MockEntry] {
    guard let node, !node.isNull else { return [] }
    guard let items = node.sequence else {
      diagnostics.add("the manifest: 'mocks' must be a list of mock entries, got \(node.summary)", at: node.location)
      return []
    }
    var entries: [MockEntry] = []
    for (index, item) in items.enumerated() {
      let label = item["output"]?.scalar.map { "mock '\($0)'" } ?? "mock entry \(index + 1)"
      guard let fields = YAMLFields(item, context: label, allowed: mockKeys, diagnostics: &diagnostics) else { continue }
      guard let output = fields.string("output", required: true, diagnostics: &diagnostics) else { continue }
      let sources = fields.strings("sources", diagnostics: &diagnostics)?.map(\.value) ?? []
      if !fields.has("sources") { diagnostics.add("\(label): missing 'sources' (the source roots the mock is made from)", at: item.location) }
      var entry = MockEntry(output: output, sources: sources, location: item.location)
      if let include = fields.strings("include", diagnostics: &diagnostics) { entry.include = include.map(\.value) }
      entry.generator = fields.string("generator", diagnostics: &diagnostics)
      entry.bundle = fields.string("bundle", diagnostics: &diagnostics)
      entries.append(entry)
    }
    return entries
  }

  /// `env:` as the child will see it: a name that is empty, holds `=` or a NUL,
  /// or a value with a NUL, cannot reach the child intact, so it is an error
  /// at its place rather than a variable silently cut or dropped.
  static func environment(_ fields: YAMLFields, label: String, diagnostics: inout DiagnosticList) -> [EnvironmentEntry] {
    guard let pairs = fields.value("env")?.mapping else {
      return (fields.stringMap("env", diagnostics: &diagnostics) ?? []).map { EnvironmentEntry(name: $0.0, value: $0.1) }
    }
    var entries: [EnvironmentEntry] = []
    let values = fields.stringMap("env", diagnostics: &diagnostics) ?? []
    var valueByName: [String: String] = [:]
    for (name, value) in values { valueByName[name] = value }
    for pair in pairs {
      guard let name = pair.key.scalar, let value = valueByName[name] else { continue }
      if name.isEmpty || name.contains("=") || name.utf8.contains(0) {
        diagnostics.add("\(label): 'env' names must be non-empty and hold no '=' or NUL, got \(pair.key.summary)", at: pair.key.location)
      } else if value.utf8.contains(0) {
        diagnostics.add("\(label): 'env.\(name)' holds a NUL byte, which no environment variable can carry", at: pair.value.location)
      } else {
        entries.append(EnvironmentEntry(name: name, value: value))
      }
    }
    return entries
  }

  /// The paths and globs of `key` that stay inside the tree; each one with `..`
  /// or a leading `/` is an error at its place (the path guard's rule, early).
  static func insideTree(_ items: [Located<String>]?, key: String, label: String, diagnostics: inout DiagnosticList) -> [String] {
    guard let items else { return [] }
    var kept: [String] = []
    for item in items {
      if PathGuard.isInside(item.value) {
        kept.append(item.value)
      } else {
        diagnostics.add("\(label): every item of '\(key)' must be a path or glob inside the tree, relative to its root (no '..', no leading '/'), got \"\(item.value)\"", at: item.location)
      }
    }
    return kept
  }

  package static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, CharacterSet.alphanumerics.contains(first), first.isASCII else { return false }
    return name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
  }
}

extension String {
  /// Nil for an empty string, so `?? "none"` reads naturally.
  package var nonEmpty: String? { isEmpty ? nil : self }
}
