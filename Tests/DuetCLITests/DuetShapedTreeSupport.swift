import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// A tree in the Duet shape, written into a fixture folder: a parity manifest
/// with features and two mock rows, a token config with themes, a Gradle build
/// with a wrapper (`include(...)` of a tested module holding the generated Kotlin,
/// a tested module depending on it, and one without tests), a Groovy build
/// without a wrapper, and nested Swift packages (one with a test target that
/// depends on the one holding the generated Swift).
enum DuetShapedTree {
  static let parityManifest = """
    # the fixture's parity manifest
    features:
      home:
        swift: src-ios/Packages/HomeKit/Sources/HomeFeature/HomeFeature.swift
        kotlin: src-kmp/feature/home/src/commonMain/kotlin/HomeFeature.kt
        state: HomeState
        fixtures:
          - home
      legacy:
        kotlin: android/legacy/src/main/kotlin/Legacy.kt

    chains:
      - home.welcome

    presentation:
      waivers: []
      islands: []

    mocks:
      bundle: 0.6.1
      generators:
        HomeFeatureMocks:
          output: src-ios/Packages/HomeKit/Tests/Mocks/HomeFeatureMocks.swift
          template: Mocks.swifttemplate
          sources:
            - src-ios/Packages/HomeKit/Sources/HomeFeature
          args:
            - import=HomeFeature
            - testable=HomeFeature
        DesignMocks:
          output: src-ios/Packages/Design/Tests/Mocks/DesignMocks.swift
          template: Mocks.swifttemplate
          sources: [src-ios/Packages/Design/Sources/Design]

    """

  static let tokenConfig = """
    version: 1
    swift:
      output: src-ios/Packages/Design/Sources/Design/Generated
      engine: DuetTheming
      theme: MainTheme
    kotlin:
      output: src-kmp/theming/src/commonMain/kotlin/Generated
      package: fixture.theming
      engine: fixture.engine
      palette: MainPalette
    colors:
      - tokens:
          - name: surface
            light: "#FFFFFF"
            dark: "#000000"
          - name: label
            light: "#111111"
            dark: "#EEEEEE"
    fonts:
      - tokens:
          - name: body
            family: sans
            weight: 400
            size: 15
            lineHeight: 20
            swift:
              textStyle: body
    contrast:
      labels: [label]
      surfaces: [surface]
    themes:
      - name: main
        level: AA

    """

  /// Writes the tree; `gradleWrapper` decides whether `src-kmp/gradlew` exists (executable).
  static func write(into tree: FixtureTree, gradleWrapper: Bool = true) throws {
    try tree.write("parity/manifest.yaml", parityManifest)
    try tree.write("parity/design-tokens.yaml", tokenConfig)

    try tree.write("src-kmp/settings.gradle.kts", "rootProject.name = \"fixture\"\n\ninclude(\n    \":theming\",\n    \":feature:home\",\n)\ninclude(\":app\") // the Android app\n")
    if gradleWrapper {
      try tree.write("src-kmp/gradlew", "#!/bin/sh\necho \"gradle stub: $*\"\n")
      try tree.makeExecutable("src-kmp/gradlew")
    }
    try tree.write("src-kmp/theming/build.gradle.kts", "plugins { kotlin(\"multiplatform\") }\nkotlin { jvm() }\n")
    try tree.write("src-kmp/theming/src/jvmTest/kotlin/PaletteTest.kt", "class PaletteTest\n")
    try tree.write("src-kmp/feature/home/build.gradle.kts", """
      plugins { kotlin("multiplatform") }
      kotlin {
        jvm()
        sourceSets { commonMain.dependencies { implementation(project(":theming")) } }
      }

      """)
    try tree.write("src-kmp/feature/home/src/commonMain/kotlin/HomeFeature.kt", "class HomeFeature\n")
    try tree.write("src-kmp/feature/home/src/commonTest/kotlin/HomeFeatureTest.kt", "class HomeFeatureTest\n")
    try tree.write("src-kmp/app/build.gradle.kts", "plugins { id(\"com.android.application\") }\n")
    // The Android SDK the :app module builds with (doctor checks it is there).
    try tree.write("src-kmp/local.properties", "sdk.dir=\(tree.url.appendingPathComponent("src-kmp/app").path)\n")
    try tree.write("src-kmp/app/src/main/kotlin/App.kt", "class App\n")
    try tree.write("src-kmp/app/src/androidTest/kotlin/AppTest.kt", "class AppTest\n")

    try tree.write("android/settings.gradle", "include ':legacy'\n")
    try tree.write("android/legacy/build.gradle", "apply plugin: 'java'\n")
    try tree.write("android/legacy/src/main/kotlin/Legacy.kt", "class Legacy\n")
    try tree.write("android/legacy/src/test/kotlin/LegacyTest.kt", "class LegacyTest\n")

    try tree.write("src-ios/Packages/HomeKit/Package.swift", """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(
        name: "HomeKit",
        dependencies: [.package(path: "../Design")],
        targets: [
          .target(name: "HomeFeature", dependencies: [.product(name: "Design", package: "Design")]),
          .testTarget(name: "HomeFeatureTests", dependencies: ["HomeFeature"]),
        ]
      )

      """)
    try tree.write("src-ios/Packages/HomeKit/Sources/HomeFeature/HomeFeature.swift", "public struct HomeFeature {}\n")
    try tree.write("src-ios/Packages/HomeKit/Tests/HomeFeatureTests/HomeTests.swift", "import XCTest\n")
    try tree.write("src-ios/Packages/HomeKit/Tests/Mocks/HomeFeatureMocks.swift", "final class HomeFeatureMock {}\n")
    try tree.write("src-ios/Packages/Design/Package.swift", """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(name: "Design", products: [.library(name: "Design", targets: ["Design"])], targets: [.target(name: "Design")])

      """)
    try tree.write("src-ios/Packages/Design/Sources/Design/Design.swift", "public enum Design {}\n")
    try tree.write("src-ios/Packages/Design/Tests/Mocks/DesignMocks.swift", "final class DesignMock {}\n")
    // A package nested inside another is a module of its own, with its own lane.
    try tree.write("src-ios/Packages/HomeKit/Plugins/Lint/Package.swift", """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(name: "Lint", targets: [.target(name: "Lint"), .testTarget(name: "LintTests", dependencies: ["Lint"])])

      """)
    // Build products and hidden folders are never modules.
    try tree.write("src-ios/Packages/HomeKit/.build/checkouts/dep/Package.swift", "")
  }

  /// A fingerprint block as the Duet mock templates write it, over `body`, for
  /// the given inputs (paths relative to the tree), computed here from the files.
  /// The templates sort the args by their bytes before joining them.
  static func templateBlock(tree: FixtureTree, bundle: String, template: String, args: [String], inputs: [String], body: String) throws -> String {
    let sorted = args.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    let description = "template=\(template) args=\(sorted.joined(separator: ";"))"
    var text = "// mock-templates:fingerprint v1\n// bundle: \(bundle)\n"
    text += "// config: sha256:\(Digest.sha256(description)) \(description)\n"
    for input in inputs.sorted() {
      text += "// input: sha256:\(Digest.sha256(try Data(contentsOf: tree.url.appendingPathComponent(input)))) \(input)\n"
    }
    text += "// body: sha256:\(Digest.sha256(body))\n// mock-templates:end\n"
    return text + body
  }
}

extension FixtureTree {
  func makeExecutable(_ path: String, _ executable: Bool = true) throws {
    try FileManager.default.setAttributes([.posixPermissions: executable ? 0o755 : 0o644], ofItemAtPath: url.appendingPathComponent(path).path)
  }

  /// A `git` in `bin/` that runs `first` (shell) and then the real git, and
  /// the PATH that finds it first: how a test sees, or slows, duet's own git calls.
  func gitOnPath(first: String) throws -> String {
    let realGit = try #require(["/usr/bin/git", "/usr/local/bin/git", "/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) })
    try write("bin/git", "#!/bin/sh\n\(first)\nexec \(realGit) \"$@\"\n")
    try makeExecutable("bin/git")
    return url.appendingPathComponent("bin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
  }
}
