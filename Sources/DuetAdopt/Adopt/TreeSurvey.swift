import Foundation
import DuetModel
import DuetSupport

/// What `duet init` (and derived lanes) find in a tree: the token config, the
/// parity manifest, the Gradle modules and the Swift packages. It is found the
/// same way `duet lanes` finds modules, so the lanes made from it cover exactly
/// the modules `duet lanes` lists.
package struct TreeSurvey: Sendable {
  var tokenConfig: TokenConfigFacts?
  var parity: ParityManifest?
  /// Sorted by folder.
  var gradleModules: [GradleModule] = []
  /// Sorted by folder.
  var swiftPackages: [SwiftPackage] = []
  /// What `init --force` carries over from the manifest it replaces.
  package var kept = KeptSections()
  /// `scripts/*.sh`: one may publish an XCFramework a package links.
  var scripts: [ScriptFile] = []
  /// Xcode projects and workspaces with shared schemes; sorted by path.
  var xcodeProjects: [XcodeProject] = []
  /// XcodeGen specs (an app with no committed `.xcodeproj`); sorted by path.
  var xcodegenSpecs: [XcodegenSpec] = []
  /// The checks the tree's own CI workflows run.
  var ciChecks = CIWorkflowChecks()

  init() {}

  /// Surveys the tree at `root`; `parity` is its already-loaded parity manifest, if any.
  package static func survey(root: URL, parity: ParityManifest?) -> TreeSurvey {
    var survey = TreeSurvey()
    survey.parity = parity
    survey.tokenConfig = TokenConfigFacts.read(root: root)
    let (settings, packages, xcodegenSpecs) = ModuleDiscovery.buildFiles(root: root)
    var modules: [String: GradleModule] = [:]
    for file in settings {
      for module in GradleModule.modules(settingsFile: file, root: root) where modules[module.path] == nil {
        modules[module.path] = module
      }
    }
    survey.gradleModules = modules.values.sorted { Glob.precedes($0.path, $1.path) }
    survey.swiftPackages = packages.compactMap { SwiftPackage.read(manifestFile: $0, root: root) }
      .sorted { Glob.precedes($0.path, $1.path) }
    if survey.gradleModules.contains(where: { !$0.xcframeworks.isEmpty }) { survey.scripts = ScriptFile.read(root: root) }
    survey.xcodeProjects = XcodeProject.find(root: root)
    survey.xcodegenSpecs = xcodegenSpecs.map { XcodegenSpec.read($0, root: root) }
    survey.ciChecks = CIWorkflowChecks.read(root: root)
    return survey
  }

  /// Whether `path` lies in `folder` (a folder relative to the root, `.` for the root).
  static func isInside(_ path: String, _ folder: String) -> Bool {
    folder == "." || path == folder || path.hasPrefix(folder + "/")
  }
}
