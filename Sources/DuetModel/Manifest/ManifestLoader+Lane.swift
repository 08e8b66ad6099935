import Foundation
import DuetSupport

/// The fields of one entry under `lanes:`, each checked where it is read so
/// every problem is reported, in the order the fields are read.
extension ManifestLoader {
  /// The lane's name, or nil when it is missing or repeats an earlier lane's
  /// (the entry is then skipped); a name too long or with odd characters is
  /// reported but kept.
  static func laneName(
    _ fields: YAMLFields, of item: YAMLNode, label: String, firstDeclared: inout [String: SourceLocation],
    diagnostics: inout DiagnosticList
  ) -> String? {
    guard let name = fields.string("name", required: true, diagnostics: &diagnostics) else { return nil }
    let nameLocation = fields.value("name")?.location ?? item.location
    if name.utf8.count > Lane.maxNameLength {
      diagnostics.add("\(label.prefix(60))…: a lane name may be at most \(Lane.maxNameLength) characters (its log file is named after it), got \(name.utf8.count)", at: nameLocation)
    } else if !isValidName(name) {
      diagnostics.add("\(label): a lane name may hold only letters, digits, '.', '_' and '-', and must start with a letter or digit", at: nameLocation)
    }
    if let earlier = firstDeclared[name] {
      diagnostics.add("\(label): duplicate lane name; the first is at line \(earlier.line)", at: nameLocation)
      return nil
    }
    firstDeclared[name] = item.location
    return name
  }

  /// A built-in (`run:`) or a shell command (`sh:`), exactly one of them.
  static func laneStep(
    _ fields: YAMLFields, of item: YAMLNode, label: String, builtins: [String: [String]], diagnostics: inout DiagnosticList
  ) -> Lane.Step? {
    switch (fields.has("run"), fields.has("sh")) {
    case (true, true):
      diagnostics.add("\(label): has both 'run' and 'sh'; a lane runs a built-in ('run') or a shell command ('sh'), not both", at: fields.keyLocation("sh"))
      return nil
    case (false, false):
      diagnostics.add("\(label): needs 'run' (a built-in: \(builtins.keys.sorted().joined(separator: ", ").nonEmpty ?? "none yet")) or 'sh' (a shell command)", at: item.location)
      return nil
    case (true, false):
      return fields.string("run", required: true, diagnostics: &diagnostics).flatMap { text in
        builtinStep(text, label: label, at: fields.value("run")!.location, builtins: builtins, diagnostics: &diagnostics)
      }
    case (false, true):
      guard let command = fields.string("sh", required: true, diagnostics: &diagnostics) else { return nil }
      // The shell would get the command up to the NUL only: `exit 0\0; exit 1` passes.
      if command.contains("\0") {
        diagnostics.add("\(label): 'sh' holds a NUL byte, which no shell command can carry (the shell would run only the text before it)",
                        at: fields.value("sh")!.location)
        return nil
      }
      return .shell(command)
    }
  }

  /// Everything after the name, the step and `needs:`; returns the kept
  /// `reports:` globs with their places, for the check across lanes.
  @discardableResult
  static func readLaneFields(
    _ fields: YAMLFields, into lane: inout Lane, label: String, pools: [String: Int], diagnostics: inout DiagnosticList
  ) -> [Located<String>] {
    lane.inputs = insideTree(fields.strings("inputs", diagnostics: &diagnostics), key: "inputs", label: label, diagnostics: &diagnostics)
    lane.covers = insideTree(fields.strings("covers", diagnostics: &diagnostics), key: "covers", label: label, diagnostics: &diagnostics)
    lane.requires = (fields.strings("requires", diagnostics: &diagnostics) ?? []).compactMap { program in
      guard program.value.contains("\0") else { return program.value }
      diagnostics.add("\(label): 'requires' names programs; one of them holds a NUL byte, which no program name can carry", at: program.location)
      return nil
    }
    lane.retries = fields.count("retries", diagnostics: &diagnostics) ?? 0
    if lane.retries > Lane.maxRetries, let value = fields.value("retries") {
      diagnostics.add("\(label): 'retries' must be at most \(Lane.maxRetries), got \(value.summary)", at: value.location)
      lane.retries = 0
    }
    if let pool = lanePool(fields, label: label, pools: pools, diagnostics: &diagnostics) { lane.pool = pool }
    lane.envInputs += envInputs(fields, label: label, diagnostics: &diagnostics)
    lane.runsOn = (fields.strings("runs-on", diagnostics: &diagnostics) ?? []).filter {
      CITemplateText.check($0.value, key: "runs-on", owner: label, at: $0.location, diagnostics: &diagnostics)
    }.map(\.value)
    lane.tags = laneTags(fields, label: label, diagnostics: &diagnostics)
    if let values = fields.strings("platforms", diagnostics: &diagnostics) {
      lane.platforms = platforms(values, label: label, at: fields.value("platforms")?.location, diagnostics: &diagnostics)
    }
    if let timeout = fields.value("timeout") {
      if let text = timeout.scalar, let seconds = DurationText.seconds(text), seconds <= Lane.maxTimeout {
        lane.timeout = seconds
      } else {
        diagnostics.add("\(label): 'timeout' must be a duration such as 90s, 10m or 1h, at most 7d, got \(timeout.summary)", at: timeout.location)
      }
    }
    lane.env = environment(fields, label: label, diagnostics: &diagnostics)
    if let dir = laneDir(fields, label: label, diagnostics: &diagnostics) { lane.dir = dir }
    lane.outputs = laneOutputs(fields, label: label, diagnostics: &diagnostics)
    let reports = fields.strings("reports", diagnostics: &diagnostics) ?? []
    lane.reports = insideTree(reports, key: "reports", label: label, diagnostics: &diagnostics)
    readSandboxFields(fields, into: &lane, label: label, diagnostics: &diagnostics)
    return reports.filter { PathGuard.isInside($0.value) }
  }

  /// `outputs:`, paths inside the tree relative to its root, without globs,
  /// each once (`build/` is `build`): a path listed twice would give entries
  /// that name it twice, which no run reads.
  static func laneOutputs(_ fields: YAMLFields, label: String, diagnostics: inout DiagnosticList) -> [String] {
    var paths: [String] = []
    var first: [String: SourceLocation] = [:]
    for path in fields.strings("outputs", diagnostics: &diagnostics) ?? [] {
      let parts = path.value.split(separator: "/").map(String.init)
      if path.value.isEmpty || path.value.hasPrefix("/") || parts.contains("..") || parts.contains(".") {
        diagnostics.add("\(label): 'outputs' lists files or folders inside the tree, relative to its root, got \"\(path.value)\"", at: path.location)
      } else if !CITemplateText.check(path.value, key: "outputs", owner: label, at: path.location, diagnostics: &diagnostics) {
        continue
      } else if path.value.contains(where: { "*?[\0\n\r".contains($0) }) {
        diagnostics.add("\(label): 'outputs' lists paths, not globs or text with control characters, got \"\(path.value)\"", at: path.location)
      } else if parts.first == ".git" || parts.first == ".duet" {
        diagnostics.add("\(label): 'outputs' lists \"\(path.value)\", inside \(parts[0]), which is git's or duet's own and never a lane's output", at: path.location)
      } else if let earlier = first[parts.joined(separator: "/")] {
        diagnostics.add("\(label): 'outputs' lists \"\(parts.joined(separator: "/"))\" twice (first at \(earlier.line):\(earlier.column)); list each path once",
                        at: path.location)
      } else {
        first[parts.joined(separator: "/")] = path.location
        paths.append(parts.joined(separator: "/"))
      }
    }
    return paths
  }

  /// `pool:`, which must name a pool the manifest declares; an unknown one is
  /// reported and still returned.
  static func lanePool(_ fields: YAMLFields, label: String, pools: [String: Int], diagnostics: inout DiagnosticList) -> String? {
    guard let pool = fields.string("pool", required: fields.has("pool"), diagnostics: &diagnostics) else { return nil }
    if pools[pool] == nil {
      let names = pools.keys.sorted()
      let known = names.isEmpty ? "the manifest declares no pools (add 'pools: {\(pool): 1}' at its top)" : "declared pools: \(names.joined(separator: ", "))"
      diagnostics.add("\(label): 'pool' names unknown pool '\(pool)'\(Suggestion.hint(for: pool, in: names)); \(known)", at: fields.value("pool")!.location)
    }
    return pool
  }

  /// `env-inputs:`, the names that are environment variable names.
  static func envInputs(_ fields: YAMLFields, label: String, diagnostics: inout DiagnosticList) -> [String] {
    var names: [String] = []
    for name in fields.strings("env-inputs", diagnostics: &diagnostics) ?? [] {
      if name.value.isEmpty || name.value.contains("=") || name.value.contains("\0") {
        diagnostics.add("\(label): 'env-inputs' names environment variables; \"\(name.value)\" is not a variable name", at: name.location)
      } else {
        names.append(name.value)
      }
    }
    return names
  }

  /// `tags:`, words made as lane names are (letters, digits, '.', '_', '-'), each once.
  static func laneTags(_ fields: YAMLFields, label: String, diagnostics: inout DiagnosticList) -> [String] {
    var tags: [String] = []
    for tag in fields.strings("tags", diagnostics: &diagnostics) ?? [] {
      if !isValidName(tag.value) || tag.value.utf8.count > Lane.maxNameLength {
        diagnostics.add("\(label): a tag may hold only letters, digits, '.', '_' and '-' (at most \(Lane.maxNameLength)), and must start with a letter or digit, got \"\(tag.value)\"", at: tag.location)
      } else if tags.contains(tag.value) {
        diagnostics.add("\(label): tag '\(tag.value)' is listed twice", at: tag.location)
      } else {
        tags.append(tag.value)
      }
    }
    return tags
  }

  /// `dir:`, a folder inside the tree relative to its root.
  static func laneDir(_ fields: YAMLFields, label: String, diagnostics: inout DiagnosticList) -> String? {
    guard let dir = fields.string("dir", diagnostics: &diagnostics) else { return nil }
    let parts = dir.split(separator: "/").map(String.init)
    if dir.hasPrefix("/") || parts.contains("..") {
      diagnostics.add("\(label): 'dir' must be a folder inside the tree, relative to its root, got \"\(dir)\"", at: fields.value("dir")!.location)
      return nil
    }
    return dir
  }
}
