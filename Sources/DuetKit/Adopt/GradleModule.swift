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
  /// The projects it depends on in the same build, named in its build file by
  /// `project(":x")` or by a type-safe accessor (`projects.x`).
  public var projectDependencies: [String] = []
  /// Whether it is a Kotlin Multiplatform module (its build file names the
  /// plugin in any spelling, `kotlin("multiplatform")` or a catalog alias such as
  /// `libs.plugins.kotlinMultiplatform`, or it has `commonMain`/`commonTest`
  /// sources, as a module set up by a convention plugin does), and whether its
  /// build file declares a JVM target.
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
    let sources = root.appendingPathComponent(path + "/src").path
    testSourceSets = Glob.entries(of: sources).filter(\.isDirectory).map(\.name)
      .filter { $0 == "test" || $0.hasSuffix("Test") }
      .sorted()
    for name in ["build.gradle.kts", "build.gradle"] {
      guard let text = try? String(contentsOfFile: root.appendingPathComponent(path + "/" + name).path, encoding: .utf8) else { continue }
      let code = BuildScriptText.withoutComments(text)
      isMultiplatform = code.lowercased().contains("multiplatform")
        || Glob.entries(of: sources).contains { $0.isDirectory && ($0.name == "commonMain" || $0.name == "commonTest") }
      hasJVMTarget = !BuildScriptText.ranges(ofWord: "jvm", in: code).filter { range in
        code[range.upperBound...].first { $0 != " " && $0 != "\t" }.map { $0 == "(" || $0 == "{" } ?? false
      }.isEmpty
      projectDependencies = GradleModule.projectReferences(in: code, buildProjects: buildProjects)
      break
    }
  }

  /// `project(":a:b")`, `project(path: ":a")` and type-safe accessor
  /// (`projects.featureHome.core` for `:feature-home:core`) references, in the
  /// order they appear, once each.
  static func projectReferences(in code: String, buildProjects: [String] = []) -> [String] {
    var found: [(at: String.Index, project: String)] = []
    var rest = Substring(code)
    while let start = rest.range(of: "project(") {
      let (arguments, after) = BuildScriptText.balancedArguments(rest[start.upperBound...])
      if let name = BuildScriptText.quotedStrings(in: String(arguments)).first(where: { $0.hasPrefix(":") }) {
        found.append((start.lowerBound, name))
      }
      rest = after
    }
    // One pass over the `projects.` chains, each resolved to its longest known accessor.
    let byAccessor = Dictionary(buildProjects.map { (typeSafeAccessor($0), $0) }, uniquingKeysWith: { first, _ in first })
    for range in BuildScriptText.ranges(ofWord: "projects", in: code) where code[range.upperBound...].first == "." {
      let chain = code[code.index(after: range.upperBound)...].prefix { BuildScriptText.isIdentifier($0) || $0 == "." }
      var segments = chain.split(separator: ".", omittingEmptySubsequences: false)
      while !segments.isEmpty {
        if let project = byAccessor[segments.joined(separator: ".")] {
          found.append((range.lowerBound, project))
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
  static func typeSafeAccessor(_ project: String) -> String {
    project.split(separator: ":").map { segment in
      let words = segment.split(whereSeparator: { $0 == "-" || $0 == "_" })
      return words.enumerated().map { index, word in
        index == 0 ? String(word.prefix(1)).lowercased() + word.dropFirst() : String(word.prefix(1)).uppercased() + word.dropFirst()
      }.joined()
    }.joined(separator: ".")
  }
}
