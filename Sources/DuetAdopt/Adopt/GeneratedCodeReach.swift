import Foundation

/// Which modules (or packages) hold a generated folder, or depend on one that
/// does: those must run after `design-tokens`. Gradle modules depend through
/// `project(...)` within one build, Swift packages through `.package(path:)`.
struct GeneratedCodeReach {
  /// A module or package: its folder, the group its dependency names resolve in,
  /// its own name there, and the names it depends on.
  struct Unit {
    var path: String
    var scope: String
    var key: String
    var dependencies: [String]
  }

  private var reasons: [String: String] = [:]

  init(_ units: [Unit], generatedFolder: String?, what: String, describe: (String) -> String) {
    guard let generatedFolder else { return }
    var lookup: [String: [String: Unit]] = [:]
    for unit in units { lookup[unit.scope, default: [:]][unit.key] = unit }
    for unit in units {
      if TreeSurvey.isInside(generatedFolder, unit.path) {
        reasons[unit.path] = "it holds the generated \(what)"
        continue
      }
      let known = lookup[unit.scope] ?? [:]
      var queue = unit.dependencies
      var seen = Set(queue)
      while !queue.isEmpty {
        let next = queue.removeFirst()
        guard let dependency = known[next] else { continue }
        if TreeSurvey.isInside(generatedFolder, dependency.path) {
          reasons[unit.path] = "it depends on \(describe(next)), which holds the generated \(what)"
          break
        }
        for further in dependency.dependencies where seen.insert(further).inserted { queue.append(further) }
      }
    }
  }

  static func kotlin(_ modules: [GradleModule], generatedFolder: String?) -> GeneratedCodeReach {
    let units = modules.map { Unit(path: $0.path, scope: $0.settingsFile, key: $0.project, dependencies: $0.projectDependencies) }
    return GeneratedCodeReach(units, generatedFolder: generatedFolder, what: "Kotlin") { $0 }
  }

  static func swift(_ packages: [SwiftPackage], generatedFolder: String?) -> GeneratedCodeReach {
    let units = packages.map { Unit(path: $0.path, scope: "", key: $0.path, dependencies: $0.pathDependencies) }
    return GeneratedCodeReach(units, generatedFolder: generatedFolder, what: "Swift") { "the package \($0)" }
  }

  /// Why the unit at `path` must run after the generator, or nil.
  func reason(_ path: String) -> String? { reasons[path] }
}
