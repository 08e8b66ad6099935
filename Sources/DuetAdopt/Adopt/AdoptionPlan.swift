import Foundation
import DuetModel

/// The lanes a surveyed tree gets, each with the reason it exists. `duet init`
/// writes them as `lanes/manifest.yaml`; a tree with only `parity/manifest.yaml`
/// runs them as derived lanes. Both come from this one plan, so they agree.
package struct AdoptionPlan: Sendable {
  /// One lane to be: what a manifest entry would say, plus why.
  package struct PlannedLane: Sendable, Equatable {
    package var name: String
    var step: Lane.Step
    var dir: String?
    var env: [EnvironmentEntry] = []
    /// What it writes that lanes needing it read (`outputs:`).
    var outputs: [String] = []
    /// The JUnit XML its tests write (`reports:`), whose cases the history records.
    var reports: [String] = []
    var needs: [String] = []
    var covers: [String] = []
    var requires: [String] = []
    /// What its result depends on (`DerivedInputs`): its fingerprint, and what `--since` matches.
    var inputs: [String] = []
    /// The pool the lane shares (every Gradle lane of one Gradle build shares one of depth 1).
    var pool: String?
    /// Where it can run; nil for anywhere.
    var platforms: [LanePlatform]?
    /// One sentence: what made duet add this lane.
    package var reason: String
  }

  /// `pools:` the lanes name: each Gradle build's pool, depth 1, because two
  /// Gradle runs in one build contend for its locks.
  package var pools: [String: Int] = [:]

  /// What the survey found, one line per source of lanes: (file, what it says).
  package var findings: [(subject: String, detail: String)] = []
  package var lanes: [PlannedLane] = []
  /// Checks the tree runs that no lane could be made for, with why: `duet init`
  /// lists them "outside the manifest" and writes them into it as comments.
  package var outside: [(subject: String, reason: String)] = []
  /// The `modules:` and `mocks:` of the manifest this plan replaces, written as they were.
  var kept = KeptSections()

  static let designTokensLane = "design-tokens"

  /// The lanes in the order a manifest lists them: design tokens, mocks,
  /// Gradle, Swift packages, Xcode schemes. Names are claimed in that order, so
  /// a clash gets its `-2` on the later lane.
  package init(_ survey: TreeSurvey) {
    var names = UniqueLaneNames()
    noteParityManifest(survey)
    addTokenLanes(survey, names: &names)
    keep(survey.kept)
    addMocksLane(survey, names: &names)
    let xcframeworkLanes = addGradleLanes(survey, names: &names)
    addSwiftPackageLanes(survey, xcframeworkLanes: xcframeworkLanes, names: &names)
    addXcodeLanes(survey, names: &names)
    addXcodegenLanes(survey, names: &names)
    addCIWorkflowLanes(survey, names: &names)
  }

  mutating func noteParityManifest(_ survey: TreeSurvey) {
    guard let parity = survey.parity else { return }
    var parts = ["\(parity.features.count) feature(s)"]
    if !parity.chains.isEmpty { parts.append("\(parity.chains.count) chain(s)") }
    parts.append("\(parity.mocks?.generators.count ?? 0) mock generator row(s)")
    findings.append((parity.path, parts.joined(separator: ", ")))
  }

  /// `design-tokens` when the tree has a token config, and `theme-test` after
  /// it when the config declares themes.
  mutating func addTokenLanes(_ survey: TreeSurvey, names: inout UniqueLaneNames) {
    guard let tokens = survey.tokenConfig else { return }
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
      name: names.claim(Self.designTokensLane), step: .builtin(command: "design-tokens", arguments: ["--check"]),
      reason: "\(tokens.path) exists: the generated Swift and Kotlin token files must match it"))
    if tokens.themeCount > 0 {
      var lane = PlannedLane(
        name: names.claim("theme-test"), step: .builtin(command: "theme-test", arguments: []),
        reason: "\(tokens.themesPath.flatMap { $0 == tokens.path ? nil : $0 } ?? "the token config") declares \(tokens.themeCount) theme(s): every label on every surface must reach each theme's WCAG level")
      lane.needs = [Self.designTokensLane]
      lanes.append(lane)
    }
  }

  mutating func keep(_ sections: KeptSections) {
    kept = sections
    if !kept.isEmpty {
      let parts = [kept.mocks.isEmpty ? nil : "\(kept.mocks.count) mock entr\(kept.mocks.count == 1 ? "y" : "ies")",
                   kept.modules.isEmpty ? nil : "\(kept.modules.count) modules: pattern(s)"].compactMap { $0 }
      findings.append((Manifest.defaultPath, parts.joined(separator: " and ") + ", kept in the file that replaces it"))
    }
  }

  /// `mocks` when the parity manifest has mock generator rows or the kept
  /// `mocks:` section has entries.
  mutating func addMocksLane(_ survey: TreeSurvey, names: inout UniqueLaneNames) {
    let mockRows = survey.parity?.mocks?.generators.count ?? 0
    var mockSources: [String] = []
    if mockRows > 0 { mockSources.append("\(survey.parity?.path ?? ParityManifest.defaultPath) has \(mockRows) mock generator row(s)") }
    if !kept.mocks.isEmpty { mockSources.append("the kept mocks: section has \(kept.mocks.count) entr\(kept.mocks.count == 1 ? "y" : "ies")") }
    if !mockSources.isEmpty {
      lanes.append(PlannedLane(
        name: names.claim("mocks"), step: .builtin(command: "mocks", arguments: ["--check"]),
        reason: mockSources.joined(separator: " and ") + ": each fingerprint block must match its sources"))
    }
  }

  /// `; feature X lives in it` for the parity features whose sources are in `folder`.
  static func featureNote(_ folder: String, in survey: TreeSurvey) -> String {
    let features = survey.parity?.features ?? []
    let owned = features.filter { $0.sourcePaths.contains { TreeSurvey.isInside($0, folder) } }.map(\.name)
    guard !owned.isEmpty else { return "" }
    return "; " + (owned.count == 1 ? "feature \(owned[0]) lives in it" : "features \(owned.joined(separator: ", ")) live in it")
  }

  /// A lane at `path` that compiles code generated from the token config runs
  /// after `design-tokens`, when the tree has a token config.
  static func orderAfterTokens(_ lane: inout PlannedLane, at path: String, survey: TreeSurvey, reach: GeneratedCodeReach) {
    if survey.tokenConfig != nil, let why = reach.reason(path) {
      lane.needs = [designTokensLane]
      lane.reason += "; \(why), so it runs after design-tokens"
    }
  }
}
