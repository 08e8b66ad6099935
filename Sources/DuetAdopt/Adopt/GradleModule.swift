import Foundation
import DuetModel
import DuetSupport

/// A Gradle project included by a settings file: its folder, its test source
/// sets, the task that runs its tests, and the projects it depends on.
package struct GradleModule: Sendable, Equatable {
  /// The module's folder relative to the tree root (`src-kmp/theming`).
  package var path: String
  /// The project path (`:theming`).
  package var project: String
  /// The settings file that includes it, and that file's folder (`""` at the root).
  var settingsFile: String
  var settingsFolder: String
  /// `src/<name>` folders that hold tests: `jvmTest`, `commonTest`, `test`...
  var testSourceSets: [String] = []
  /// The projects it depends on in the same build, named in its build file by
  /// `project(":x")` or by a type-safe accessor (`projects.x`).
  var projectDependencies: [String] = []
  /// Whether it is a Kotlin Multiplatform module (its build file names the
  /// plugin in any spelling, `kotlin("multiplatform")` or a catalog alias such as
  /// `libs.plugins.kotlinMultiplatform`, or it has `commonMain`/`commonTest`
  /// sources, as a module set up by a convention plugin does), and whether its
  /// build file declares a JVM target.
  var isMultiplatform = false
  var hasJVMTarget = false
  /// Whether the settings folder has a `gradlew` wrapper.
  var hasWrapper = false
  /// Which Android Gradle plugin the module applies, if any (and it is not multiplatform).
  package var androidPlugin: AndroidPlugin?
  /// The names of the XCFrameworks its build file declares (`XCFramework("FoyerKit")`);
  /// `""` for `XCFramework()`, which takes its frameworks' base name.
  var xcframeworks: [String] = []
  /// `jvmToolchain(N)` in its build file, if any.
  package var jvmToolchain: Int?
  /// Whether its build file or host test sources name `parity/fixtures`, the
  /// golden fixtures a Duet tree records: its tests read them, so they belong
  /// in its lane's inputs (a fixture-only change must not be served from the cache).
  var readsParityFixtures = false

  package enum AndroidPlugin: String, Sendable, Equatable {
    case application, library
  }

  /// The task that assembles one declared XCFramework (Kotlin's naming:
  /// `assemble<Name>XCFramework`, `assembleXCFramework` without a name).
  static func xcframeworkTask(_ name: String) -> String { "assemble\(name)XCFramework" }

  /// Source sets that need a device or simulator; duet runs only host tests.
  static let deviceTestSets: Set<String> = ["androidTest", "androidInstrumentedTest", "androidDeviceTest", "iosTest", "iosX64Test", "iosArm64Test", "iosSimulatorArm64Test"]

  /// Host tests duet can run: every test source set but the device ones.
  var hostTestSourceSets: [String] { testSourceSets.filter { !GradleModule.deviceTestSets.contains($0) } }

  /// The task that runs the module's host tests, or nil when it has none:
  /// `jvmTest` for a multiplatform module with a JVM target, `allTests` for
  /// another multiplatform module, `testDebugUnitTest` for an Android
  /// application or library (the Android plugin's unit-test task for the
  /// debug variant), `test` for a JVM module.
  var testTask: String? {
    let host = hostTestSourceSets
    guard !host.isEmpty else { return nil }
    if isMultiplatform {
      return hasJVMTarget && (host.contains("commonTest") || host.contains("jvmTest")) ? "jvmTest" : "allTests"
    }
    return androidPlugin == nil ? "test" : "testDebugUnitTest"
  }

  /// The modules a settings file includes, read from disk.
  package static func modules(settingsFile: String, root: URL) -> [GradleModule] {
    let folder = (settingsFile as NSString).deletingLastPathComponent
    guard let data = (try? PathGuard.read(settingsFile, in: root)) ?? nil, let text = String(data: data, encoding: .utf8) else { return [] }
    let wrapper = FileManager.default.fileExists(atPath: root.appendingPathComponent(folder.isEmpty ? "gradlew" : folder + "/gradlew").path)
    let included = ModuleDiscovery.gradleIncludes(in: text).compactMap { include -> (path: String, project: String)? in
      guard let path = ModuleDiscovery.gradleModulePath(include, settingsFolder: folder) else { return nil }
      return (path, ":" + include.split(separator: ":").joined(separator: ":"))
    }
    let projects = included.map(\.project)
    return included.map { path, project in
      var module = GradleModule(path: path, project: project, settingsFile: settingsFile, settingsFolder: folder, hasWrapper: wrapper)
      module.read(root: root, buildProjects: projects)
      return module
    }
  }

  /// Reads the module's source sets and build file; `buildProjects` are the
  /// project paths of its build, which its type-safe accessors may name.
  mutating func read(root: URL, buildProjects: [String]) {
    let sourceSets = Glob.entries(of: root.appendingPathComponent(path + "/src").path).filter(\.isDirectory).map(\.name)
    testSourceSets = sourceSets.filter { $0 == "test" || $0.hasSuffix("Test") }.sorted()
    for name in ["build.gradle.kts", "build.gradle"] {
      guard let data = (try? PathGuard.read(path + "/" + name, in: root)) ?? nil, let text = String(data: data, encoding: .utf8) else { continue }
      let script = BuildScript(text)
      isMultiplatform = GradleModule.appliesMultiplatform(script)
        || sourceSets.contains("commonMain") || sourceSets.contains("commonTest")
      hasJVMTarget = script.positions(of: "jvm").contains { position in
        position + 1 < script.tokens.count && (script.tokens[position + 1] == .symbol("(") || script.tokens[position + 1] == .symbol("{"))
      }
      projectDependencies = GradleModule.projectReferences(in: script, buildProjects: buildProjects)
      androidPlugin = isMultiplatform ? nil : GradleModule.appliedAndroidPlugin(script)
      xcframeworks = script.calls("XCFramework").map { BuildScript.literals($0).first ?? "" }
      jvmToolchain = script.calls("jvmToolchain").lazy.compactMap { arguments in
        arguments.lazy.compactMap { if case .word(let word) = $0 { return Int(word) } else { return nil } }.first
      }.first
      readsParityFixtures = text.contains(GradleModule.parityFixtures)
      break
    }
    if !readsParityFixtures && FileManager.default.fileExists(atPath: root.appendingPathComponent(GradleModule.parityFixtures).path) {
      readsParityFixtures = hostTestSourceSets.contains { GradleModule.mentions(GradleModule.parityFixtures, under: root.appendingPathComponent(path + "/src/" + $0)) }
    }
  }

  /// The folder of a Duet tree's golden fixtures, relative to the root.
  static let parityFixtures = "parity/fixtures"

  /// Bounds on reading test sources for a mention: files, and bytes per file.
  static let mentionScanFiles = 2000
  static let mentionScanBytes = 1 << 20

  /// Whether a regular file under `folder` (at most `mentionScanFiles` of them,
  /// each up to `mentionScanBytes`; links not followed) contains `text`.
  static func mentions(_ text: String, under folder: URL) -> Bool {
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey]) else { return false }
    let needle = Data(text.utf8)
    var seen = 0
    for case let url as URL in walker {
      guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]), values.isRegularFile == true,
            (values.fileSize ?? 0) <= mentionScanBytes else { continue }
      seen += 1
      if seen > mentionScanFiles { return false }
      if let data = try? Data(contentsOf: url), data.range(of: needle) != nil { return true }
    }
    return false
  }

  /// Whether the script applies the Kotlin Multiplatform plugin, in any of its
  /// spellings: `kotlin("multiplatform")`, the plugin id
  /// `org.jetbrains.kotlin.multiplatform`, Groovy's `kotlin-multiplatform`, or a
  /// version-catalog alias (`alias(libs.plugins.kotlinMultiplatform)`). A
  /// dependency whose name merely contains the word does not count.
  static func appliesMultiplatform(_ script: BuildScript) -> Bool {
    if script.calls("kotlin").contains(where: { BuildScript.literals($0) == ["multiplatform"] }) { return true }
    let ids: Set<String> = ["org.jetbrains.kotlin.multiplatform", "kotlin-multiplatform"]
    if script.tokens.contains(where: { if case .literal(let text?) = $0 { return ids.contains(text) } else { return false } }) { return true }
    return script.calls("alias").contains { arguments in
      let words = arguments.compactMap { if case .word(let word) = $0 { return word.lowercased() } else { return nil } }
      return words.joined().hasSuffix("kotlinmultiplatform")
    }
  }

  /// `com.android.application` or `com.android.library`, by plugin id (Kotlin
  /// or Groovy) or by a version-catalog alias (`libs.plugins.android.application`).
  static func appliedAndroidPlugin(_ script: BuildScript) -> AndroidPlugin? {
    for plugin in [AndroidPlugin.application, .library] {
      let id = "com.android.\(plugin.rawValue)"
      if script.tokens.contains(where: { if case .literal(let text?) = $0 { return text == id } else { return false } }) { return plugin }
      let aliased = script.calls("alias").contains { arguments in
        let words = arguments.compactMap { if case .word(let word) = $0 { return word.lowercased() } else { return nil } }
        return words.joined().hasSuffix("android\(plugin.rawValue)")
      }
      if aliased { return plugin }
    }
    return nil
  }

  /// `project(":a:b")`, `project(path: ":a")` and type-safe accessor
  /// (`projects.featureHome.core` for `:feature-home:core`) references, in the
  /// order they appear, once each.
  static func projectReferences(in script: BuildScript, buildProjects: [String] = []) -> [String] {
    var found: [(at: Int, project: String)] = []
    for position in script.positions(of: "project") {
      if let arguments = script.arguments(at: position + 1),
         let name = BuildScript.literals(arguments).first(where: { $0.hasPrefix(":") }) {
        found.append((position, name))
      }
    }
    // Each `projects.` chain resolved to its longest known accessor.
    let byAccessor = Dictionary(buildProjects.map { (typeSafeAccessor($0), $0) }, uniquingKeysWith: { first, _ in first })
    let tokens = script.tokens
    for position in script.positions(of: "projects") {
      var segments: [String] = []
      var index = position + 1
      while index + 1 < tokens.count, tokens[index] == .symbol("."), case .word(let word) = tokens[index + 1] {
        segments.append(word)
        index += 2
      }
      while !segments.isEmpty {
        if let project = byAccessor[segments.joined(separator: ".")] {
          found.append((position, project))
          break
        }
        segments.removeLast()
      }
    }
    var seen: Set<String> = []
    return found.sorted { $0.at < $1.at }.map(\.project).filter { seen.insert($0).inserted }
  }

  /// Gradle's type-safe accessor for a project path: each segment in lower
  /// camel case, `-` and `_` dropped (`:feature-home:core` → `featureHome.core`).
  /// Written as a loop with its types spelled out: the chained `map`s it
  /// replaces took the type checker 0.7 s of every build.
  static func typeSafeAccessor(_ project: String) -> String {
    let segments: [String] = project.split(separator: ":").map { segment in
      var accessor = ""
      for (index, word) in segment.split(whereSeparator: { $0 == "-" || $0 == "_" }).enumerated() {
        let head = String(word.prefix(1))
        accessor += (index == 0 ? head.lowercased() : head.uppercased()) + String(word.dropFirst())
      }
      return accessor
    }
    return segments.joined(separator: ".")
  }
}
