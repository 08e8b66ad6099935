import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("A tree the Duet toolchain made (the command line, in-process)")
struct DuetToolchainTreeCLITests {
  func duetShapedTree() throws -> FixtureTree {
    let tree = try FixtureTree()
    try DuetShapedTree.write(into: tree)
    return tree
  }

  /// A parity row listing its args out of order checks against the block the templates wrote
  /// (they sort the args); a changed arg is still a config finding.
  @Test func unsortedArgsCheckAsTheTemplatesWroteThem() throws {
    let tree = try duetShapedTree()
    // Swap the two args: the row now lists them out of byte order.
    let unsorted = DuetShapedTree.parityManifest
      .replacingOccurrences(of: "- import=HomeFeature", with: "- SWAP")
      .replacingOccurrences(of: "- testable=HomeFeature", with: "- import=HomeFeature")
      .replacingOccurrences(of: "- SWAP", with: "- testable=HomeFeature")
    #expect(unsorted != DuetShapedTree.parityManifest)
    try tree.write("parity/manifest.yaml", unsorted)
    let home = "src-ios/Packages/HomeKit/Tests/Mocks/HomeFeatureMocks.swift"
    let homeText = try DuetShapedTree.templateBlock(
      tree: tree, bundle: "0.6.1", template: "Mocks.swifttemplate", args: ["testable=HomeFeature", "import=HomeFeature"],
      inputs: ["src-ios/Packages/HomeKit/Sources/HomeFeature/HomeFeature.swift"], body: "final class HomeFeatureMock {}\n")
    #expect(homeText.contains(" args=import=HomeFeature;testable=HomeFeature\n"))
    try tree.write(home, homeText)
    let design = "src-ios/Packages/Design/Tests/Mocks/DesignMocks.swift"
    try tree.write(design, try DuetShapedTree.templateBlock(
      tree: tree, bundle: "0.6.1", template: "Mocks.swifttemplate", args: [],
      inputs: ["src-ios/Packages/Design/Sources/Design/Design.swift"], body: "final class DesignMock {}\n"))

    let check = try tree.duet("mocks", "--check")
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout == "duet mocks --check: 2 mock file(s) up to date\n")
    #expect(try tree.duet("mocks").status == 0)
    #expect(try tree.read(home) == homeText)

    try tree.write("parity/manifest.yaml", unsorted.replacingOccurrences(of: "- testable=HomeFeature", with: "- testable=Home"))
    let stale = try tree.duet("mocks", "--check")
    #expect(stale.status == 1)
    #expect(stale.stdout.contains("the entry says \"template=Mocks.swifttemplate args=import=HomeFeature;testable=Home\""), "\(stale.stdout)")
  }

  /// With `contrast:` and `themes:` in parity/theme-test.yaml, the token config keeps to the engine's
  /// grammar, `duet theme-test` reads the settings from there, and a hand-written high-contrast
  /// mapping is never duplicated by a generated one.
  @Test func themeTestSettingsBesideTheConfig() throws {
    let tree = try FixtureTree()
    let foyer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Examples/Foyer/parity/design-tokens.yaml")
    let text = try String(contentsOf: foyer, encoding: .utf8)
    let cut = try #require(text.range(of: "contrast:\n"))
    try tree.write("parity/design-tokens.yaml", String(text[..<cut.lowerBound]))
    try tree.write("parity/theme-test.yaml", "version: 1\n" + String(text[cut.lowerBound...]))
    let handWritten = "src-ios/Libraries/FoyerKit/Sources/Theming/HighContrastTheme.swift"
    try tree.write(handWritten, "// the team's own high-contrast mapping\n")

    let write = try tree.duet("design-tokens")
    #expect(write.status == 0, "\(write.stderr)")
    #expect(write.lines.first == "duet design-tokens: wrote 6 token file(s):")
    #expect(!write.stdout.contains("HighContrast"))
    let theme = try tree.duet("theme-test")
    #expect(theme.status == 0, "\(theme.stdout)\(theme.stderr)")
    #expect(theme.stdout.contains("highContrast"), "\(theme.stdout)")
    #expect(try tree.duet("design-tokens", "--check").status == 0)
    #expect(try tree.read(handWritten) == "// the team's own high-contrast mapping\n")
  }

  /// The tutorial's build shape, written here: one Gradle build (logic modules declaring
  /// jvmToolchain(25), an apple-umbrella declaring XCFramework("FoyerKit"), an Android app with
  /// unit tests) and the FoyerKit package linking the XCFramework from the umbrella's build folder.
  func tutorialShapedTree() throws -> FixtureTree {
    let tree = try FixtureTree()
    try tree.write("parity/manifest.yaml", "features: {}\nchains: []\npresentation:\n  waivers: []\n  islands: []\n")
    try tree.write("src-kmp/settings.gradle.kts", "rootProject.name = \"foyer-kmp\"\ninclude(\":ports\")\ninclude(\":apple-umbrella\")\ninclude(\":app\")\n")
    try tree.write("src-kmp/gradlew", "#!/bin/sh\necho \"gradle stub: $*\"\n")
    try tree.makeExecutable("src-kmp/gradlew")
    try tree.write("src-kmp/ports/build.gradle.kts", "plugins { kotlin(\"multiplatform\") }\nkotlin {\n  jvmToolchain(25)\n  jvm()\n}\n")
    try tree.write("src-kmp/ports/src/jvmTest/kotlin/PortsTest.kt", "class PortsTest\n")
    try tree.write("src-kmp/apple-umbrella/build.gradle.kts", "plugins { kotlin(\"multiplatform\") }\nkotlin {\n  val xcf = XCFramework(\"FoyerKit\")\n  iosArm64 { binaries.framework { xcf.add(this) } }\n}\n")
    try tree.write("src-kmp/app/build.gradle.kts", "plugins { id(\"com.android.application\") }\nkotlin { jvmToolchain(25) }\n")
    try tree.write("src-kmp/app/src/test/kotlin/AppTest.kt", "class AppTest\n")
    try tree.write("src-ios/Libraries/FoyerKit/Package.swift", """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(name: "FoyerKit", targets: [
        .binaryTarget(name: "FoyerKit", path: "../../../src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework"),
        .target(name: "HomeShell", dependencies: ["FoyerKit"]),
        .testTarget(name: "HomeShellTests", dependencies: ["HomeShell"]),
      ])

      """)
    // The tutorial's publisher: it copies Gradle's release framework where the package links it.
    try tree.write("scripts/publish_foyerkit.sh", "#!/bin/sh\n(cd src-kmp && ./gradlew :apple-umbrella:assembleFoyerKitReleaseXCFramework)\n"
                   + "mkdir -p src-kmp/apple-umbrella/build/XCFrameworks/app\ncp -R src-kmp/apple-umbrella/build/XCFrameworks/release/FoyerKit.xcframework src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework\n")
    return tree
  }

  /// A folder with a stub `java` reporting JDK 17, put first on PATH.
  func stubJava() throws -> FixtureTree {
    let bin = try FixtureTree()
    try bin.write("java", "#!/bin/sh\necho 'openjdk version \"17.0.15\" 2025-04-15' >&2\n")
    try bin.makeExecutable("java")
    return bin
  }

  /// `duet lanes` runs the XCFramework lane before the package that links it; on Linux `duet verify
  /// --strict` skips the macOS-only lanes and passes; the Android app runs testDebugUnitTest.
  @Test func buildOrderAndPlatforms() throws {
    let tree = try tutorialShapedTree()
    let bin = try stubJava()
    let path = bin.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let lanes = try tree.duet("lanes", "--json")
    #expect(lanes.status == 0, "\(lanes.stderr)")
    let order = try #require(try JSONSerialization.jsonObject(with: Data(lanes.stdout.utf8)) as? [String: Any])["lanes"] as? [[String: Any]]
    let names = (order ?? []).compactMap { $0["name"] as? String }
    let xcframework = try #require(names.firstIndex(of: "xcframework-FoyerKit"))
    #expect(xcframework < (names.firstIndex(of: "swift-FoyerKit") ?? -1), "\(names)")
    #expect((order ?? []).first { $0["name"] as? String == "kotlin-app" }?["command"] as? String == "./gradlew :app:testDebugUnitTest --console=plain")
    #expect((order ?? []).first { $0["name"] as? String == "kotlin-app" }?["pool"] as? String == "gradle")
    #expect((order ?? []).first { $0["name"] as? String == "xcframework-FoyerKit" }?["pool"] as? String == "gradle")
    #expect((order ?? []).first { $0["name"] as? String == "xcframework-FoyerKit" }?["platforms"] as? [String] == ["macos"])
    #expect((order ?? []).first { $0["name"] as? String == "swift-FoyerKit" }?["platforms"] as? [String] == ["macos"])

    // kotlin-app is an Android module: its lane needs the SDK (an empty folder stands in).
    let sdk = try FixtureTree()
    let verify = try tree.duet("verify", "--strict", environment: ["PATH": path, "ANDROID_HOME": sdk.url.path])
    #if os(Linux)
      #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
      #expect(verify.stdout.contains("xcframework-FoyerKit skipped (macOS only)"), "\(verify.stdout)")
      #expect(verify.stdout.contains("duet verify: PASS (2 passed, 2 skipped: macOS only"), "\(verify.stdout)")
    #endif
  }

  /// doctor fails when the modules ask jvmToolchain(25) and the java on PATH is JDK 17, and names
  /// them; a settings file with a toolchain resolver makes it a note instead.
  @Test func doctorComparesJVMToolchain() throws {
    let tree = try tutorialShapedTree()
    let bin = try stubJava()
    let path = bin.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let run = try tree.duet("doctor", environment: ["PATH": path, "COLUMNS": "200"])
    #expect(run.status == 1, "\(run.stdout)")
    #expect(run.stdout.contains("jvmToolchain(25) in 2 Gradle module(s): :ports, :app; java on PATH is JDK 17"), "\(run.stdout)")
    #expect(run.stdout.contains("Gradle module(s) :ports, :app declare jvmToolchain(25), and the java on PATH is JDK 17: install JDK 25"), "\(run.stdout)")

    let settings = try tree.read("src-kmp/settings.gradle.kts")
    try tree.write("src-kmp/settings.gradle.kts", "plugins { id(\"org.gradle.toolchains.foojay-resolver-convention\") version \"0.8.0\" }\n" + settings)
    let resolved = try tree.duet("doctor", environment: ["PATH": path, "COLUMNS": "200"])
    #expect(!resolved.stdout.contains("install JDK 25"), "\(resolved.stdout)")
    #expect(resolved.stdout.contains("configures a toolchain resolver, so Gradle may download JDK 25"), "\(resolved.stdout)")
  }

  /// Issue 41, item 1: the JDK a module asks for is a problem only when a lane
  /// that runs here covers that module; the repository root, whose lanes cover
  /// none of `Examples/Courier`'s modules, failed on their jvmToolchain(25).
  @Test func doctorCountsOnlyCoveredModulesForTheJDK() throws {
    let tree = try tutorialShapedTree()
    let bin = try stubJava()
    let path = bin.url.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n  - name: ports\n    sh: echo ports\n    covers: [src-kmp/ports]\n")
    let one = try tree.duet("doctor", environment: ["PATH": path, "COLUMNS": "300"])
    #expect(one.stdout.contains("Gradle module(s) :ports declare jvmToolchain(25), and the java on PATH is JDK 17"), "\(one.stdout)")
    #expect(!one.stdout.contains(":ports, :app declare"), "\(one.stdout)")

    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n  - name: other\n    sh: echo other\n")
    let none = try tree.duet("doctor", environment: ["PATH": path, "COLUMNS": "300"])
    #expect(none.stdout.contains("jvmToolchain(25) in 2 Gradle module(s): :ports, :app; java on PATH is JDK 17 (no lane here covers them, so no lane needs JDK 25)"), "\(none.stdout)")
    #expect(!none.stdout.contains("install JDK 25"), "\(none.stdout)")
  }
}
