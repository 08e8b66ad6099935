import Foundation

/// A Gradle project included by a settings file: its folder, its test source
/// sets, the task that runs its tests, and the projects it depends on.
public struct GradleModule: Sendable, Equatable {
  /// The module's folder relative to the tree root (`src-kmp/theming`).
  public var path: String
  /// The project path (`:theming`).
  public var project: String
  /// The settings file that includes it, and that file's folder (`""` at the root).
  public var settingsFile: String
  public var settingsFolder: String
  /// `src/<name>` folders that hold tests: `jvmTest`, `commonTest`, `test`...
  public var testSourceSets: [String] = []
  /// The projects named by `project(":x")` in its build file, in the same build.
  public var projectDependencies: [String] = []
  /// Whether its build file applies Kotlin Multiplatform, and declares a JVM target.
  public var isMultiplatform = false
  public var hasJVMTarget = false
  /// Whether the settings folder has a `gradlew` wrapper.
  public var hasWrapper = false

  /// Source sets that need a device or simulator; duet runs only host tests.
  static let deviceTestSets: Set<String> = ["androidTest", "androidInstrumentedTest", "androidDeviceTest", "iosTest", "iosX64Test", "iosArm64Test", "iosSimulatorArm64Test"]

  /// Host tests duet can run: every test source set but the device ones.
  public var hostTestSourceSets: [String] { testSourceSets.filter { !GradleModule.deviceTestSets.contains($0) } }

  /// The task that runs the module's host tests, or nil when it has none:
  /// `jvmTest` for a multiplatform module with a JVM target, `allTests` for
  /// another multiplatform module, `test` for a JVM or Android module.
  public var testTask: String? {
    let host = hostTestSourceSets
    guard !host.isEmpty else { return nil }
    if isMultiplatform {
      return hasJVMTarget && (host.contains("commonTest") || host.contains("jvmTest")) ? "jvmTest" : "allTests"
    }
    return "test"
  }

  /// The modules a settings file includes, read from disk.
  static func modules(settingsFile: String, root: URL) -> [GradleModule] {
    let folder = (settingsFile as NSString).deletingLastPathComponent
    guard let text = try? String(contentsOfFile: root.appendingPathComponent(settingsFile).path, encoding: .utf8) else { return [] }
    let wrapper = FileManager.default.fileExists(atPath: root.appendingPathComponent(folder.isEmpty ? "gradlew" : folder + "/gradlew").path)
    return ModuleDiscovery.gradleIncludes(in: text).compactMap { include in
      guard let path = ModuleDiscovery.gradleModulePath(include, settingsFolder: folder) else { return nil }
      let project = ":" + include.split(separator: ":").joined(separator: ":")
      var module = GradleModule(path: path, project: project, settingsFile: settingsFile, settingsFolder: folder, hasWrapper: wrapper)
      module.read(root: root)
      return module
    }
  }

  mutating func read(root: URL) {
    let sources = root.appendingPathComponent(path + "/src").path
    testSourceSets = Glob.entries(of: sources).filter(\.isDirectory).map(\.name)
      .filter { $0 == "test" || $0.hasSuffix("Test") }
      .sorted()
    for name in ["build.gradle.kts", "build.gradle"] {
      guard let text = try? String(contentsOfFile: root.appendingPathComponent(path + "/" + name).path, encoding: .utf8) else { continue }
      let code = GradleModule.withoutComments(text)
      isMultiplatform = code.contains("multiplatform")
      hasJVMTarget = code.contains("jvm(") || code.contains("jvm {") || code.contains("jvm{")
      projectDependencies = GradleModule.projectReferences(in: code)
      break
    }
  }

  /// `project(":a:b")` and `project(path: ":a")` references, in order, once each.
  static func projectReferences(in code: String) -> [String] {
    var found: [String] = []
    var rest = Substring(code)
    while let start = rest.range(of: "project(") {
      let after = rest[start.upperBound...]
      let end = after.firstIndex(of: ")") ?? after.endIndex
      if let name = ModuleDiscovery.quotedStrings(in: String(after[..<end])).first(where: { $0.hasPrefix(":") }), !found.contains(name) {
        found.append(name)
      }
      rest = after[end...]
    }
    return found
  }

  /// Kotlin/Groovy text with `//` line comments dropped.
  static func withoutComments(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
    }.joined(separator: "\n")
  }
}
