import Foundation

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
    /// One sentence: what made duet add this lane.
    public var reason: String
  }

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
    for module in survey.gradleModules {
      let gradle = module.hasWrapper ? "./gradlew" : "gradle"
      let task = module.testTask
      let taskPath = (module.project == ":" ? "" : module.project) + ":" + (task ?? "assemble")
      var lane = PlannedLane(
        name: unique("kotlin-" + LaneNames.sanitized(module.project.split(separator: ":").joined(separator: "-"))),
        step: .shell("\(gradle) \(ShellWord.quoted(taskPath)) --console=plain"),
        reason: "")
      lane.dir = module.settingsFolder.isEmpty ? nil : module.settingsFolder
      lane.covers = [module.path]
      lane.requires = module.hasWrapper ? ["java"] : ["gradle", "java"]
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
      lanes.append(lane)
    }
  }
}
