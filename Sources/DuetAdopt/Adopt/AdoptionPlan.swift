import Foundation
import DuetRun
import DuetTokens
import DuetModel
import DuetSupport

/// The lanes a surveyed tree gets, each with the reason it exists. `duet init`
/// writes them as `lanes/manifest.yaml`; a tree with only `parity/manifest.yaml`
/// runs them as derived lanes. Both come from this one plan, so they agree.
public struct AdoptionPlan: Sendable {
  /// One lane to be: what a manifest entry would say, plus why.
  public struct PlannedLane: Sendable, Equatable {
    public var name: String
    public var step: Lane.Step
    public var dir: String?
    public var needs: [String] = []
    public var covers: [String] = []
    public var requires: [String] = []
    /// The pool the lane shares (every Gradle lane of one Gradle build shares one of depth 1).
    public var pool: String?
    /// Where it can run; nil for anywhere.
    public var platforms: [LanePlatform]?
    /// One sentence: what made duet add this lane.
    public var reason: String
  }

  /// `pools:` the lanes name: each Gradle build's pool, depth 1, because two
  /// Gradle runs in one build contend for its locks.
  public var pools: [String: Int] = [:]

  /// What the survey found, one line per source of lanes: (file, what it says).
  public var findings: [(subject: String, detail: String)] = []
  public var lanes: [PlannedLane] = []
  /// The `modules:` and `mocks:` of the manifest this plan replaces, written as they were.
  public var kept = KeptSections()

  public static let designTokensLane = "design-tokens"

  public init(_ survey: TreeSurvey) {
    var names = Set<String>()
    func unique(_ base: String) -> String {
      var name = base
      var counter = 2
      while names.contains(name) {
        name = "\(base)-\(counter)"
        counter += 1
      }
      names.insert(name)
      return name
    }

    if let parity = survey.parity {
      var parts = ["\(parity.features.count) feature(s)"]
      if !parity.chains.isEmpty { parts.append("\(parity.chains.count) chain(s)") }
      parts.append("\(parity.mocks?.generators.count ?? 0) mock generator row(s)")
      findings.append((parity.path, parts.joined(separator: ", ")))
    }
    let tokens = survey.tokenConfig
    if let tokens {
      var detail = "token config"
      if let problem = tokens.problem {
        detail += " (not readable yet: \(problem))"
      } else {
        detail += tokens.themeCount > 0 ? " with \(tokens.themeCount) theme(s)" : " without themes"
        let outputs = [tokens.kotlinOutput.map { "Kotlin into \($0)" }, tokens.swiftOutput.map { "Swift into \($0)" }].compactMap { $0 }
        if !outputs.isEmpty { detail += "; " + outputs.joined(separator: ", ") }
      }
      findings.append((tokens.path, detail))
      lanes.append(PlannedLane(
        name: unique(Self.designTokensLane), step: .builtin(command: "design-tokens", arguments: ["--check"]),
        reason: "\(tokens.path) exists: the generated Swift and Kotlin token files must match it"))
      if tokens.themeCount > 0 {
        var lane = PlannedLane(
          name: unique("theme-test"), step: .builtin(command: "theme-test", arguments: []),
          reason: "\(tokens.themesPath.flatMap { $0 == tokens.path ? nil : $0 } ?? "the token config") declares \(tokens.themeCount) theme(s): every label on every surface must reach each theme's WCAG level")
        lane.needs = [Self.designTokensLane]
        lanes.append(lane)
      }
    }
    kept = survey.kept
    if !kept.isEmpty {
      let parts = [kept.mocks.isEmpty ? nil : "\(kept.mocks.count) mock entr\(kept.mocks.count == 1 ? "y" : "ies")",
                   kept.modules.isEmpty ? nil : "\(kept.modules.count) modules: pattern(s)"].compactMap { $0 }
      findings.append((Manifest.defaultPath, parts.joined(separator: " and ") + ", kept in the file that replaces it"))
    }
    let mockRows = survey.parity?.mocks?.generators.count ?? 0
    var mockSources: [String] = []
    if mockRows > 0 { mockSources.append("\(survey.parity?.path ?? ParityManifest.defaultPath) has \(mockRows) mock generator row(s)") }
    if !kept.mocks.isEmpty { mockSources.append("the kept mocks: section has \(kept.mocks.count) entr\(kept.mocks.count == 1 ? "y" : "ies")") }
    if !mockSources.isEmpty {
      lanes.append(PlannedLane(
        name: unique("mocks"), step: .builtin(command: "mocks", arguments: ["--check"]),
        reason: mockSources.joined(separator: " and ") + ": each fingerprint block must match its sources"))
    }

    let features = survey.parity?.features ?? []
    func featureNote(_ folder: String) -> String {
      let owned = features.filter { $0.sourcePaths.contains { TreeSurvey.isInside($0, folder) } }.map(\.name)
      guard !owned.isEmpty else { return "" }
      return "; " + (owned.count == 1 ? "feature \(owned[0]) lives in it" : "features \(owned.joined(separator: ", ")) live in it")
    }

    let tokenLane = tokens == nil ? nil : Self.designTokensLane
    var settingsSeen: [String] = []
    for module in survey.gradleModules where !settingsSeen.contains(module.settingsFile) {
      settingsSeen.append(module.settingsFile)
      let included = survey.gradleModules.filter { $0.settingsFile == module.settingsFile }.map(\.project)
      findings.append((module.settingsFile, "\(included.count) Gradle module(s): \(included.joined(separator: ", "))"))
    }
    let kotlinHolders = GeneratedCodeReach.kotlin(survey.gradleModules, generatedFolder: tokens?.kotlinOutput)
    let gradleBuilds = settingsSeen
    /// The pool of one Gradle build: `gradle`, or `gradle-<folder>` when the tree has several.
    func gradlePool(_ module: GradleModule) -> String {
      gradleBuilds.count == 1 ? "gradle" : "gradle-" + LaneNames.sanitized(module.settingsFolder.isEmpty ? "root" : module.settingsFolder.replacingOccurrences(of: "/", with: "-"))
    }
    /// Each XCFramework lane by the module that builds it: (framework name, lane name).
    var xcframeworkLanes: [String: [(framework: String, lane: String)]] = [:]
    for module in survey.gradleModules {
      let gradle = module.hasWrapper ? "./gradlew" : "gradle"
      let task = module.testTask
      let project = module.project == ":" ? "" : module.project
      let taskPath = project + ":" + (task ?? "assemble")
      let moduleLaneName = "kotlin-" + LaneNames.sanitized(module.project.split(separator: ":").joined(separator: "-"))
      let pool = gradlePool(module)
      pools[pool] = 1
      // A module that declares XCFrameworks gets a lane per framework, macOS only
      // (Kotlin/Native Apple targets build only there), in the build's pool.
      let linked = survey.swiftPackages.flatMap(\.binaryTargetPaths).filter { $0.hasPrefix(module.path + "/build/") }
      for framework in module.xcframeworks {
        let declared = "Gradle module \(module.project) declares XCFramework\(framework.isEmpty ? "()" : "(\"\(framework)\")")"
        var lane: PlannedLane
        switch XCFrameworkProducer.choose(name: framework, module: module, linked: linked, scripts: survey.scripts) {
        case .gradleTask(let name):
          lane = PlannedLane(
            name: unique("xcframework-" + LaneNames.sanitized(framework.isEmpty ? String(moduleLaneName.dropFirst("kotlin-".count)) : framework)),
            step: .shell("\(gradle) \(ShellWord.quoted(project + ":" + name)) --console=plain"),
            reason: "\(declared), assembled by \(name)")
          lane.dir = module.settingsFolder.isEmpty ? nil : module.settingsFolder
          let unwritten = linked.filter { ($0 as NSString).lastPathComponent == framework + ".xcframework" }
          if name == GradleModule.xcframeworkTask(framework), let path = unwritten.first {
            lane.reason += " (which writes build/XCFrameworks/debug and release, not \(path), the path a package links: point the lane at whatever publishes that path)"
          }
        case .script(let path):
          let script = survey.scripts.first { $0.path == path }
          lane = PlannedLane(
            name: unique("xcframework-" + LaneNames.sanitized(framework.isEmpty ? String(moduleLaneName.dropFirst("kotlin-".count)) : framework)),
            step: .shell(script?.command ?? ShellWord.quoted(path)),
            reason: "\(declared); the packages link a path Gradle does not write, which \(path) publishes, so the lane runs it")
        }
        lane.reason += "; macOS only, as Kotlin/Native Apple frameworks build only there"
        lane.requires = module.hasWrapper ? ["java"] : ["gradle", "java"]
        lane.pool = pool
        lane.platforms = [.macos]
        if task == nil { lane.covers = [module.path] }
        if let tokenLane, let why = kotlinHolders.reason(module.path) {
          lane.needs = [tokenLane]
          lane.reason += "; \(why), so it runs after design-tokens"
        }
        lanes.append(lane)
        xcframeworkLanes[module.path, default: []].append((framework, lane.name))
      }
      // Its XCFramework lanes already build a module without host tests.
      if task == nil && !module.xcframeworks.isEmpty { continue }
      var lane = PlannedLane(
        name: unique(moduleLaneName),
        step: .shell("\(gradle) \(ShellWord.quoted(taskPath)) --console=plain"),
        reason: "")
      lane.dir = module.settingsFolder.isEmpty ? nil : module.settingsFolder
      lane.covers = [module.path]
      lane.requires = module.hasWrapper ? ["java"] : ["gradle", "java"]
      lane.pool = pool
      if let task {
        lane.reason = "Gradle module \(module.project) has tests (src/\(module.hostTestSourceSets.joined(separator: ", src/"))), run by \(task)"
      } else if !module.testSourceSets.isEmpty {
        lane.reason = "Gradle module \(module.project) has only device tests (src/\(module.testSourceSets.joined(separator: ", src/"))): assembled, so it still builds"
      } else {
        lane.reason = "Gradle module \(module.project) has no tests: assembled, so it still builds"
      }
      lane.reason += featureNote(module.path)
      if let tokenLane, let why = kotlinHolders.reason(module.path) {
        lane.needs = [tokenLane]
        lane.reason += "; \(why), so it runs after design-tokens"
      }
      lanes.append(lane)
    }

    let swiftHolders = GeneratedCodeReach.swift(survey.swiftPackages, generatedFolder: tokens?.swiftOutput)
    for package in survey.swiftPackages {
      let targets = package.testTargets
      findings.append((package.manifestFile, targets.isEmpty ? "Swift package without a test target" : "Swift package, test target(s): \(targets.joined(separator: ", "))"))
      let leaf = package.path == "." ? "package" : String(package.path.split(separator: "/").last ?? "package")
      var lane = PlannedLane(
        name: unique("swift-" + LaneNames.sanitized(leaf)),
        step: .shell("swift \(targets.isEmpty ? "build" : "test") --package-path \(ShellWord.quoted(package.path))"),
        reason: targets.isEmpty
          ? "Swift package \(package.path) has no test target: built, so it still compiles"
          : "Swift package \(package.path) has test target(s) \(targets.joined(separator: ", "))")
      lane.covers = [package.path]
      lane.requires = ["swift"]
      lane.reason += featureNote(package.path)
      if package.path == "." {
        lane.reason += "; as the root package it covers '.', and so every module below the root: one added later is not listed outside the manifest"
      }
      if let tokenLane, let why = swiftHolders.reason(package.path) {
        lane.needs = [tokenLane]
        lane.reason += "; \(why), so it runs after design-tokens"
      }
      // A binary target under a Gradle module's build/ is that module's XCFramework: its lane comes first.
      for binary in package.binaryTargetPaths {
        guard let module = survey.gradleModules.first(where: { binary.hasPrefix($0.path + "/build/") }) else { continue }
        let fileName = (binary as NSString).lastPathComponent
        let stem = fileName.hasSuffix(".xcframework") ? String(fileName.dropLast(".xcframework".count)) : fileName
        let candidates = xcframeworkLanes[module.path] ?? []
        let chosen = candidates.filter { $0.framework == stem }.map(\.lane)
        let builders = chosen.isEmpty ? candidates.map(\.lane) : chosen
        for builder in builders where !lane.needs.contains(builder) { lane.needs.append(builder) }
        if builders.isEmpty {
          lane.reason += "; it links \(binary), under Gradle module \(module.project)'s build folder, which declares no XCFramework(...) duet could name"
        } else {
          lane.reason += "; it links \(binary), which \(builders.joined(separator: ", ")) builds, so it runs after it"
        }
      }
      if let why = package.macOSOnlyReason {
        lane.platforms = [.macos]
        lane.reason += "; macOS only: \(why)"
      }
      lanes.append(lane)
    }

    for project in survey.xcodeProjects {
      findings.append((project.path, "Xcode \(project.isWorkspace ? "workspace" : "project"), shared scheme(s): \(project.schemes.joined(separator: ", "))"))
      for scheme in project.schemes {
        var lane = PlannedLane(
          name: unique("xcode-" + LaneNames.sanitized(scheme)),
          step: .shell(project.testCommand(scheme: scheme)),
          reason: "shared scheme \(scheme) of \(project.path): tested on an iOS simulator; macOS only")
        lane.requires = ["xcodebuild"]
        lane.platforms = [.macos]
        if project.folder != "." { lane.covers = [project.folder] }
        lanes.append(lane)
      }
    }
  }
}
