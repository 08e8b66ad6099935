import DuetProcess
import Foundation
import DuetAdopt
import DuetTokens
import DuetModel
import DuetSupport
import DuetHistory

/// `duet doctor`: whether this machine and tree have what the lanes need. Reads
/// everything, runs nothing but `--version` probes (each with a deadline), and
/// writes nothing; the history store is opened read-only.
package enum Doctor {
  package struct Options: Sendable {
    var root: URL
    /// How the root was found: a marker file or `--root`; nil when no tree was
    /// found, and `root` is only where the search started.
    var foundBy: String?
    var environment: [String: String]
    /// Seconds each toolchain probe may take.
    var probeTimeout: Double = 10
    var builtins: [String: [String]]
    /// The operating system the lanes are checked for: a lane whose `platforms:`
    /// leaves it out is skipped there by verify, so nothing it needs is a problem.
    var platform: LanePlatform = .current

    package init(root: URL, foundBy: String?, environment: [String: String], builtins: [String: [String]]) {
      self.root = root
      self.foundBy = foundBy
      self.environment = environment
      self.builtins = builtins
    }
  }

  package static func run(_ options: Options) -> DoctorReport {
    let root = options.root
    var report = DoctorReport(root: root.path)
    if let foundBy = options.foundBy {
      report.add("tree", "\(root.path) (found by \(foundBy))")
    } else {
      report.add("tree", "none: no \(Manifest.defaultPath) or \(ParityManifest.defaultPath) in \(root.path) or any folder above it")
      report.problem("no tree: run duet doctor inside one, pass --root DIR, or write a manifest with 'duet init'")
    }

    // The toolchain probes are slow (a JVM starts for kotlinc): they run while the rest is read.
    // Each on a thread of its own; their answers come back when joined.
    let environment = options.environment, timeout = options.probeTimeout
    let probes = JoinedThread {
      ToolProbe.toolchains.parallelMap(width: ToolProbe.toolchains.count) { toolchain in
        ToolProbe.version(of: toolchain.tool, argument: toolchain.argument, environment: environment, timeout: timeout)
      }
    }

    let manifest = options.foundBy == nil ? nil : readManifests(options, into: &report)
    if let manifest {
      checkTokenConfigs(manifest, root: root, into: &report)
      if !manifest.mocks.isEmpty {
        let parityRows = manifest.mocks.filter { $0.location.file == ParityManifest.defaultPath }.count
        let origins = [(manifest.mocks.count - parityRows, Manifest.defaultPath), (parityRows, ParityManifest.defaultPath)]
          .filter { $0.0 > 0 }.map { "\($0.0) from \($0.1)" }
        report.add("mocks", "\(manifest.mocks.count) mock file(s): " + origins.joined(separator: ", "))
      }
    }
    let needed = manifest.map { checkLanes($0, options: options, into: &report) } ?? [:]
    if options.foundBy != nil { checkHistory(options, into: &report) }

    let versions = probes.join()
    if options.foundBy != nil {
      JVMToolchainCheck.check(root: root, manifest: manifest, platform: options.platform, java: versions.first { $0.tool == "java" }, into: &report)
      if let manifest {
        AndroidSDKCheck.check(root: root, manifest: manifest, platform: options.platform, environment: options.environment, into: &report)
        XCFrameworkHandOffCheck.check(root: root, manifest: manifest, into: &report)
        QuarantineCheck.check(root: root, manifest: manifest, into: &report)
      }
    }
    for version in versions {
      let users = needed[version.tool] ?? []
      let need = users.isEmpty ? "" : " (needed by \(users.count == 1 ? "lane" : "lanes") \(users.joined(separator: ", ")))"
      if let path = version.path {
        report.add(version.tool, "\(version.text) (\(path))\(version.ok ? "" : need)")
        if !version.ok && !users.isEmpty { report.problem("\(version.tool): \(version.text)\(need)") }
      } else {
        // A missing program a lane needs is already that lane's problem.
        report.add(version.tool, "not found on PATH\(need.isEmpty ? " (no lane needs it)" : need)")
      }
    }
    return report
  }

  /// The parity manifest and the lanes, each read or its first error reported.
  static func readManifests(_ options: Options, into report: inout DoctorReport) -> Manifest? {
    let root = options.root
    var parity: ParityManifest?
    var parityBroken = false
    if ParityManifestLoader.exists(root: root) {
      do {
        let loaded = try ParityManifestLoader.load(root: root)
        parity = loaded
        var parts = ["\(loaded.features.count) feature(s)"]
        if !loaded.chains.isEmpty { parts.append("\(loaded.chains.count) chain(s)") }
        parts.append("\(loaded.mocks?.generators.count ?? 0) mock generator row(s)")
        report.add("parity", "\(ParityManifest.defaultPath): " + parts.joined(separator: ", "))
      } catch {
        parityBroken = true
        report.add("parity", "\(ParityManifest.defaultPath): \(errorCount(error.diagnostics))")
        report.problem(firstError(error.diagnostics))
      }
    }
    let hasLanes = FileManager.default.fileExists(atPath: root.appendingPathComponent(Manifest.defaultPath).path)
    var manifest: Manifest
    if hasLanes {
      do {
        manifest = try ManifestLoader.load(root: root, builtins: options.builtins)
        report.add("lanes", "\(Manifest.defaultPath): \(manifest.lanes.count) lane(s)")
      } catch {
        report.add("lanes", "\(Manifest.defaultPath): \(errorCount(error.diagnostics))")
        report.problem(firstError(error.diagnostics))
        return nil
      }
    } else if parity != nil || FileManager.default.fileExists(atPath: root.appendingPathComponent(TreeManifest.parityFolder).path) {
      let from = parity == nil ? TreeManifest.parityFolderPath : ParityManifest.defaultPath
      manifest = Manifest(path: from)
      let plan = AdoptionPlan(TreeSurvey.survey(root: root, parity: parity))
      manifest.pools = plan.pools
      manifest.lanes = DerivedLanes.lanes(plan, file: from)
      let adds = DerivedLanes.initAdds(root: root).map { "; " + $0 } ?? ""
      report.add("lanes", "\(manifest.lanes.count) lane(s) derived from \(from); run duet init to pin them\(adds)")
    } else {
      if !parityBroken {
        report.add("lanes", "none")
        report.problem("no \(Manifest.defaultPath) or \(ParityManifest.defaultPath) in \(root.path); run duet init")
      }
      return nil
    }
    manifest.mocks += parity?.mockEntries ?? []
    return manifest
  }

  /// The token config of the tree and of every folder a token built-in runs on.
  static func checkTokenConfigs(_ manifest: Manifest, root: URL, into report: inout DoctorReport) {
    var trees: [String: [String]] = [".": []]
    for lane in manifest.lanes {
      guard case .builtin(let command, _) = lane.step, command == "design-tokens" || command == "theme-test" else { continue }
      trees[lane.dir ?? ".", default: []].append(lane.name)
    }
    for (dir, lanes) in trees.sorted(by: { $0.key < $1.key }) {
      let tree = dir == "." ? root : root.appendingPathComponent(dir)
      let shown = dir == "." ? TokenConfig.defaultPath : dir + "/" + TokenConfig.defaultPath
      let needsThemes = manifest.lanes.contains { lanes.contains($0.name) && $0.commandText.hasPrefix("theme-test") }
      guard FileManager.default.fileExists(atPath: tree.appendingPathComponent(TokenConfig.defaultPath).path) else {
        if needsThemes {
          report.add("token config", "\(shown): missing")
          report.problem("\(shown) is missing, and lane(s) \(lanes.joined(separator: ", ")) read it")
        }
        continue
      }
      do {
        let config = try TokenConfigLoader.load(root: tree)
        let themes = config.themes.isEmpty ? "" : ", \(config.themes.count) theme(s)"
        report.add("token config", "\(shown): \(config.colors.count) colour, \(config.fonts.count) type, \(config.gradients.count) gradient token(s)\(themes)")
      } catch {
        if lanes.isEmpty {
          report.add("token config", "\(shown): no lane reads it, and it has errors: \(firstError(error.diagnostics))")
        } else {
          report.add("token config", "\(shown): \(errorCount(error.diagnostics))")
          report.problem(firstError(error.diagnostics))
        }
      }
    }
  }

  /// One line per lane: for a shell lane, where each program it starts and each
  /// `requires:` program was found; a lane for another platform only says so,
  /// since verify skips it here. Returns which lanes need each program by name.
  static func checkLanes(_ manifest: Manifest, options: Options, into report: inout DoctorReport) -> [String: [String]] {
    var needed: [String: [String]] = [:]
    for lane in manifest.lanes {
      if let reason = lane.platformSkipReason(on: options.platform) {
        report.add("lane \(lane.name)", "\(reason): verify skips it on \(options.platform == .macos ? "macOS" : "Linux"), so nothing it needs is checked")
        continue
      }
      guard case .shell(let command) = lane.step else {
        report.add("lane \(lane.name)", "built-in: \(lane.commandText)")
        continue
      }
      let laneDir = lane.dir ?? "."
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: options.root.appendingPathComponent(laneDir).path, isDirectory: &isDirectory), isDirectory.boolValue else {
        report.add("lane \(lane.name)", "dir \(laneDir): no such folder")
        report.problem("lane \(lane.name): its dir '\(laneDir)' does not exist")
        continue
      }
      var found: [String] = []
      let names = programPaths(lane, command: command, options: options, found: &found, into: &report)
      let path = options.environment[.path]
      var seen = Set<String>()
      for name in names where seen.insert(name).inserted {
        needed[name, default: []].append(lane.name)
        if ToolProbe.which(name, path: path) != nil {
          found.append("\(name): on PATH")
        } else {
          found.append("\(name): not found on PATH")
          let why = lane.requires.contains(name) ? " (requires:; verify skips the lane, --strict fails it)" : ""
          report.problem("lane \(lane.name): \(name) not found on PATH\(why)")
        }
      }
      if lane.requires.contains(AndroidSDK.requirement) { checkAndroidSDK(lane, options: options, found: &found, into: &report) }
      report.add("lane \(lane.name)", found.isEmpty ? "sh: no program duet can check (\(command.prefix(60)))" : found.joined(separator: "; "))
    }
    return needed
  }

  /// The programs a shell lane starts by path (`./gradlew`), each checked and
  /// noted in `found`; returns the names to look up on PATH, `requires:` last.
  static func programPaths(_ lane: Lane, command: String, options: Options, found: inout [String], into report: inout DoctorReport) -> [String] {
    var names: [String] = []
    for program in ShellPrograms.programs(in: command) {
      guard program.isPath else {
        names.append(program.name)
        continue
      }
      let relative = ([lane.dir, program.directory].compactMap { $0 } + [program.name]).joined(separator: "/")
      // An absolute program (`/usr/bin/env`) is shown as it is, never made tree-relative by dropping its slash.
      let isAbsolute = program.name.hasPrefix("/")
      let shown = isAbsolute ? shownPath(program.name, root: options.root) : normalized(relative)
      let absolute = isAbsolute ? program.name : options.root.appendingPathComponent(shown).path
      if ExecutableFile.exists(at: absolute) {
        found.append("\(program.name): \(shown), executable")
      } else if FileManager.default.fileExists(atPath: absolute) {
        found.append("\(program.name): \(shown), not executable")
        report.problem("lane \(lane.name): \(shown) is not executable (chmod +x \(shown))")
      } else {
        found.append("\(program.name): not found")
        report.problem("lane \(lane.name): \(program.name) not found (looked for \(shown))")
      }
      if program.name.hasSuffix("gradlew") { names.append("java") }
    }
    for name in lane.requires where !names.contains(name) && name != AndroidSDK.requirement { names.append(name) }
    return names
  }

  /// `requires: [android-sdk]`: the SDK the lane gets as verify finds it
  /// (`sdk.dir` in its folder's `local.properties`, else `ANDROID_HOME`), and a
  /// problem with verify's own words when it has none.
  static func checkAndroidSDK(_ lane: Lane, options: Options, found: inout [String], into report: inout DoctorReport) {
    if let missing = AndroidSDK.missing(laneDir: lane.dir, root: options.root, environment: options.environment) {
      found.append("android sdk: not found")
      report.problem("lane \(lane.name): \(missing) (requires:; verify skips the lane, --strict fails it)")
    } else if let location = AndroidSDK.locate(laneDir: lane.dir, root: options.root, environment: options.environment) {
      found.append("android sdk: \(shownPath(location.path, root: options.root)) (from \(location.source))")
    }
  }

  static func checkHistory(_ options: Options, into report: inout DoctorReport) {
    do {
      try PathGuard.checkStateFolder(root: options.root)
    } catch {
      report.add("history", "\(error)")
      report.problem("\(error)")
      return
    }
    let path = HistoryStore.defaultPath(root: options.root, environment: options.environment)
    let health = HistoryHealth.inspect(path: path)
    let shown = path.map { shownPath($0, root: options.root) } ?? ""
    switch health.state {
    case .off:
      report.add("history", "off (DUET_HISTORY=off): runs are not recorded")
    case .absent:
      report.add("history", "\(shown): not made yet (the first duet verify makes it)")
    case .store(let schema, let integrity):
      let current = schema == HistoryStore.schemaVersion ? "current" : schema < HistoryStore.schemaVersion ? "older; the next verify migrates it to \(HistoryStore.schemaVersion)" : "newer than this duet's \(HistoryStore.schemaVersion)"
      report.add("history", "\(shown): \(byteText(health.size)), schema \(schema) (\(current)), integrity \(integrity)")
      if integrity != "ok" { report.problem("history: \(shown) fails PRAGMA integrity_check: \(integrity) (the next verify moves it aside)") }
      if schema > HistoryStore.schemaVersion { report.problem("history: \(shown) was written by a newer duet (schema \(schema)); upgrade duet") }
    case .broken(let why):
      report.add("history", "\(shown): \(byteText(health.size)), unreadable")
      report.problem("history: \(shown): \(why) (the next verify moves it aside)")
    }
  }

  /// What a file's errors come to, in the report's body; the first is in the problems.
  static func errorCount(_ diagnostics: [Diagnostic]) -> String {
    diagnostics.count == 1 ? "1 error (below)" : "\(diagnostics.count) errors (the first below)"
  }

  static func firstError(_ diagnostics: [Diagnostic]) -> String {
    guard let first = diagnostics.first else { return "unknown error" }
    return first.description + (diagnostics.count > 1 ? " (and \(diagnostics.count - 1) more)" : "")
  }

  static func normalized(_ path: String) -> String {
    normalizedOutputFolder(path).nonEmpty ?? "."
  }

  static func shownPath(_ path: String, root: URL) -> String {
    let prefix = root.standardizedFileURL.path + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }

  static func byteText(_ bytes: Int64) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    if bytes < 1024 * 1024 { return "\(bytes / 1024) KiB" }
    return String(format: "%.1f MiB", Double(bytes) / 1048576)
  }
}
