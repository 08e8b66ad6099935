import Foundation
import DuetSupport
import DuetModel

/// The Gradle part of an adoption plan: a lane per module that has tests (or
/// that only builds), and a macOS lane per XCFramework a module declares. The
/// lanes of one Gradle build share its pool, since two Gradle runs in one build
/// contend for its locks.
extension AdoptionPlan {
  /// Each XCFramework lane by the path of the module that builds it: (framework
  /// name, lane name, the linked paths its `outputs:` hold).
  typealias XCFrameworkLanes = [String: [(framework: String, lane: String, outputs: [String])]]

  /// What the Swift package lanes need to know about the Gradle lanes.
  mutating func addGradleLanes(_ survey: TreeSurvey, names: inout UniqueLaneNames) -> XCFrameworkLanes {
    let gradleBuilds = noteGradleBuilds(survey)
    let kotlinHolders = GeneratedCodeReach.kotlin(survey.gradleModules, generatedFolder: survey.tokenConfig?.kotlinOutput)
    var xcframeworkLanes: XCFrameworkLanes = [:]
    var handedOn: [String] = []
    for module in survey.gradleModules {
      let pool = Self.gradlePool(module, builds: gradleBuilds)
      pools[pool] = 1
      // A module that declares XCFrameworks gets a lane per framework, macOS only
      // (Kotlin/Native Apple targets build only there), in the build's pool.
      var written = 0
      for framework in module.xcframeworks {
        var lane = Self.xcframeworkLane(framework, of: module, survey: survey, names: &names)
        lane.pool = pool
        Self.orderAfterTokens(&lane, at: module.path, survey: survey, reach: kotlinHolders)
        // A lane that writes none of the paths packages link cannot hand them
        // on: none is written, and the note outside the manifest says what to add.
        guard noteHandOff(&lane, framework: framework, module: module, survey: survey, handedOn: &handedOn) else {
          names.release(lane.name)
          continue
        }
        lanes.append(lane)
        written += 1
        xcframeworkLanes[module.path, default: []].append((framework, lane.name, lane.outputs))
      }
      // Its XCFramework lanes already build a module without host tests.
      if module.testTask == nil && written > 0 { continue }
      var lane = Self.moduleLane(module, survey: survey, names: &names)
      lane.pool = pool
      Self.orderAfterTokens(&lane, at: module.path, survey: survey, reach: kotlinHolders)
      lanes.append(lane)
    }
    return xcframeworkLanes
  }

  /// Keeps the lane's `outputs:` that no earlier lane writes (the manifest
  /// refuses two lanes whose outputs overlap), and lists outside the manifest
  /// each path a package links for this framework that no known task writes:
  /// in CI nothing would hand it to the package's lane. Returns whether the
  /// lane is written: not when packages link the framework and it writes none
  /// of their paths (issue 52, item 8: init never writes a lane that cannot work).
  mutating func noteHandOff(_ lane: inout PlannedLane, framework: String, module: GradleModule, survey: TreeSurvey, handedOn: inout [String]) -> Bool {
    lane.outputs = lane.outputs.filter { path in
      !handedOn.contains { TreeSurvey.isInside(path, $0) || TreeSurvey.isInside($0, path) }
    }
    let linked = survey.swiftPackages.flatMap(\.binaryTargetPaths).filter { $0.hasPrefix(module.path + "/build/") }
    let paths = XCFrameworkProducer.linkedPaths(of: framework, linked: linked)
    let kept = !(lane.outputs.isEmpty && paths.contains { path in !handedOn.contains { TreeSurvey.isInside(path, $0) } })
    handedOn += lane.outputs
    let declared = "XCFramework\(framework.isEmpty ? "()" : "(\"\(framework)\")") of Gradle module \(module.project)"
    for path in paths.sorted() where !lane.outputs.contains(path) && !handedOn.contains(where: { TreeSurvey.isInside(path, $0) }) {
      let consumers = survey.swiftPackages.filter { $0.binaryTargetPaths.contains(path) }.map(\.path)
      let by = consumers.joined(separator: ", ")
      outside.append((path, kept
        ? "linked by \(by), but no task duet knows writes it (\(lane.name) does not), so no lane can hand it to the package's lane in CI; add a lane that writes it, with the path in its outputs"
        : "linked by \(by), but no task duet knows writes it (Gradle's write build/XCFrameworks/debug and release), so duet wrote no lane for \(declared); add one that publishes it, lists it in its outputs and is needed by the lane of \(by)"))
    }
    return kept
  }

  /// A finding per Gradle build (settings file) with the modules it includes;
  /// returns the settings files, in survey order.
  mutating func noteGradleBuilds(_ survey: TreeSurvey) -> [String] {
    var settingsSeen: [String] = []
    for module in survey.gradleModules where !settingsSeen.contains(module.settingsFile) {
      settingsSeen.append(module.settingsFile)
      let included = survey.gradleModules.filter { $0.settingsFile == module.settingsFile }.map(\.project)
      findings.append((module.settingsFile, "\(included.count) Gradle module(s): \(included.joined(separator: ", "))"))
    }
    return settingsSeen
  }

  /// The pool of one Gradle build: `gradle`, or `gradle-<folder>` when the tree has several.
  static func gradlePool(_ module: GradleModule, builds: [String]) -> String {
    builds.count == 1 ? "gradle" : "gradle-" + LaneNames.sanitized(module.settingsFolder.isEmpty ? "root" : module.settingsFolder.replacingOccurrences(of: "/", with: "-"))
  }

  /// `kotlin-<project>`, the name of a module's own lane.
  static func moduleLaneName(_ module: GradleModule) -> String {
    "kotlin-" + LaneNames.sanitized(module.project.split(separator: ":").joined(separator: "-"))
  }

  static func gradleCommand(_ module: GradleModule) -> String { module.hasWrapper ? "./gradlew" : "gradle" }

  /// The lane that builds `framework` (empty for an unnamed `XCFramework()`) of
  /// `module`: its Gradle task, or the script that publishes the path a package links.
  static func xcframeworkLane(_ framework: String, of module: GradleModule, survey: TreeSurvey, names: inout UniqueLaneNames) -> PlannedLane {
    let project = module.project == ":" ? "" : module.project
    let linked = survey.swiftPackages.flatMap(\.binaryTargetPaths).filter { $0.hasPrefix(module.path + "/build/") }
    let declared = "Gradle module \(module.project) declares XCFramework\(framework.isEmpty ? "()" : "(\"\(framework)\")")"
    let name = "xcframework-" + LaneNames.sanitized(framework.isEmpty ? String(moduleLaneName(module).dropFirst("kotlin-".count)) : framework)
    var lane: PlannedLane
    switch XCFrameworkProducer.choose(name: framework, module: module, linked: linked, scripts: survey.scripts) {
    case .gradleTask(let task):
      lane = PlannedLane(
        name: names.claim(name),
        step: .shell("\(gradleCommand(module)) \(ShellWord.quoted(project + ":" + task)) --console=plain"),
        reason: "\(declared), assembled by \(task)")
      lane.dir = module.settingsFolder.isEmpty ? nil : module.settingsFolder
      let unwritten = linked.filter { ($0 as NSString).lastPathComponent == framework + ".xcframework" }
      if task == GradleModule.xcframeworkTask(framework), let path = unwritten.first {
        lane.reason += " (which writes build/XCFrameworks/debug and release, not \(path), the path a package links: point the lane at whatever publishes that path)"
      }
    case .script(let path):
      let script = survey.scripts.first { $0.path == path }
      lane = PlannedLane(
        name: names.claim(name),
        step: .shell(script?.command ?? ShellWord.quoted(path).text),
        reason: "\(declared); the packages link a path Gradle does not write, which \(path) publishes, so the lane runs it")
    }
    lane.reason += "; macOS only, as Kotlin/Native Apple frameworks build only there"
    lane.requires = module.hasWrapper ? ["java"] : ["gradle", "java"]
    lane.inputs = DerivedInputs.gradle(module, in: survey.gradleModules)
    if case .script(let path) = XCFrameworkProducer.choose(name: framework, module: module, linked: linked, scripts: survey.scripts) {
      lane.inputs.append(path)
    }
    lane.platforms = [.macos]
    lane.outputs = XCFrameworkProducer.choose(name: framework, module: module, linked: linked, scripts: survey.scripts)
      .outputs(name: framework, linked: linked, scripts: survey.scripts)
    if module.testTask == nil { lane.covers = [module.path] }
    return lane
  }

  /// The module's own lane: its host tests, or `assemble` when it has none.
  static func moduleLane(_ module: GradleModule, survey: TreeSurvey, names: inout UniqueLaneNames) -> PlannedLane {
    let task = module.testTask
    let project = module.project == ":" ? "" : module.project
    let taskPath = project + ":" + (task ?? "assemble")
    var lane = PlannedLane(
      name: names.claim(moduleLaneName(module)),
      step: .shell("\(gradleCommand(module)) \(ShellWord.quoted(taskPath)) --console=plain"),
      reason: "")
    lane.dir = module.settingsFolder.isEmpty ? nil : module.settingsFolder
    lane.covers = [module.path]
    lane.requires = module.hasWrapper ? ["java"] : ["gradle", "java"]
    // An Android module builds only with the SDK: skipped clearly without one, as macOS lanes are on Linux.
    if module.androidPlugin != nil { lane.requires.append(AndroidSDK.requirement) }
    lane.inputs = DerivedInputs.gradle(module, in: survey.gradleModules)
    if let task {
      // Gradle's test tasks write one JUnit XML per class under build/test-results/<task>/.
      lane.reports = [(module.path == "." ? "" : module.path + "/") + "build/test-results/**/*.xml"]
      lane.reason = "Gradle module \(module.project) has tests (src/\(module.hostTestSourceSets.joined(separator: ", src/"))), run by \(task)"
    } else if !module.testSourceSets.isEmpty {
      lane.reason = "Gradle module \(module.project) has only device tests (src/\(module.testSourceSets.joined(separator: ", src/"))): assembled, so it still builds"
    } else {
      lane.reason = "Gradle module \(module.project) has no tests: assembled, so it still builds"
    }
    lane.reason += featureNote(module.path, in: survey)
    return lane
  }
}
