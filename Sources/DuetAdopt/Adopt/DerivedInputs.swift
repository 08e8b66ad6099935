import Foundation
import DuetModel

/// The `inputs:` of the lanes `duet init` writes, so that they are cached when
/// nothing they build from changed, and `--since` runs them when anything did.
///
/// A lane's inputs are the files of the module it builds (its sources and its
/// own build files, never its build output), those of every module it depends
/// on in the same build, and the build's own files (settings, the root build
/// file, properties, the wrapper, version catalogs, `buildSrc`), which
/// configure every module of that build.
package enum DerivedInputs {
  /// A Gradle module's own files: those at its top (its build file,
  /// properties) and everything under `src/`; not `build/`, which Gradle writes.
  static func gradleModuleFiles(_ path: String) -> [String] {
    [joined(path, "*"), joined(path, "src/**")]
  }

  /// The files of the Gradle build a settings file starts.
  static func gradleBuildFiles(settingsFolder folder: String) -> [String] {
    ["settings.gradle.kts", "settings.gradle", "build.gradle.kts", "build.gradle", "gradle.properties", "gradlew",
     "gradle/**", "buildSrc/*", "buildSrc/src/**"].map { joined(folder, $0) }
  }

  /// The inputs of a lane that builds `module`: its files, those of the modules
  /// it depends on (transitively, in its build), and its build's files.
  static func gradle(_ module: GradleModule, in modules: [GradleModule]) -> [String] {
    let build = modules.filter { $0.settingsFile == module.settingsFile }
    var reached: [String] = []
    var queue = [module.project]
    while let project = queue.first {
      queue.removeFirst()
      guard !reached.contains(project), let found = build.first(where: { $0.project == project }) else { continue }
      reached.append(project)
      queue += found.projectDependencies
    }
    let folders = reached.compactMap { project in build.first { $0.project == project }?.path }
    // The golden fixtures its tests read (a Duet tree's `parity/fixtures`), outside every module.
    let fixtures = module.readsParityFixtures ? [GradleModule.parityFixtures + "/**"] : []
    return unique(folders.flatMap(gradleModuleFiles) + gradleBuildFiles(settingsFolder: module.settingsFolder) + fixtures)
  }

  /// The inputs of a lane that builds a Swift package: its manifests, its
  /// resolved versions, its sources, tests and plugins, and the same of every
  /// local package it depends on (transitively).
  static func swift(_ package: SwiftPackage, in packages: [SwiftPackage]) -> [String] {
    var reached: [String] = []
    var queue = [package.path]
    while let path = queue.first {
      queue.removeFirst()
      guard !reached.contains(path) else { continue }
      reached.append(path)
      queue += packages.first { $0.path == path }?.pathDependencies ?? []
    }
    return unique(reached.flatMap { folder in
      ["Package.swift", "Package@*.swift", "Package.resolved", "Sources/**", "Tests/**", "Plugins/**"].map { joined(folder, $0) }
    })
  }

  /// For each Gradle module and Swift package of the tree, by folder: the
  /// inputs a lane that `covers:` it depends on (`gradle`, `swift`). What
  /// `--since` matches beside a lane's own inputs, so a hand-written lane that
  /// covers `:app` runs when `:core`, which `:app` depends on, changed.
  package static func byModule(root: URL) -> [String: [String]] {
    let (settings, packageFiles, _) = ModuleDiscovery.buildFiles(root: root)
    var modules: [GradleModule] = []
    for file in settings {
      for module in GradleModule.modules(settingsFile: file, root: root) where !modules.contains(where: { $0.path == module.path }) {
        modules.append(module)
      }
    }
    let packages = packageFiles.compactMap { SwiftPackage.read(manifestFile: $0, root: root) }
    var inputs: [String: [String]] = [:]
    for module in modules { inputs[module.path] = gradle(module, in: modules) }
    for package in packages { inputs[package.path] = swift(package, in: packages) }
    return inputs
  }

  /// `folder/pattern`, or the pattern itself at the tree root.
  static func joined(_ folder: String, _ pattern: String) -> String {
    folder.isEmpty || folder == "." ? pattern : folder + "/" + pattern
  }

  static func unique(_ patterns: [String]) -> [String] {
    var seen = Set<String>()
    return patterns.filter { seen.insert($0).inserted }
  }
}
