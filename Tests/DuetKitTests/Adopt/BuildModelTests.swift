import Foundation
import Testing
@testable import DuetApp
@testable import DuetAdopt
@testable import DuetDoctor
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// A tree shaped like the Duet tutorials' (tutorial 3 and 7), written from scratch:
/// one Gradle build under src-kmp with logic modules, an apple-umbrella module that
/// declares the FoyerKit XCFramework, an Android app with unit tests, the FoyerKit
/// Swift package and the umbrella's swift-consumer package linking that XCFramework.
enum TutorialShapedTree {
  static func write(into tree: TemporaryFolder) throws {
    try tree.write("src-kmp/settings.gradle.kts", """
      rootProject.name = "foyer-kmp"
      include(":ports")
      include(":subtrees:home:logic")
      include(":apple-umbrella")
      include(":app")

      """)
    try tree.write("src-kmp/gradlew", "#!/bin/sh\necho \"gradle stub: $*\"\n")
    for module in ["ports", "subtrees/home/logic"] {
      try tree.write("src-kmp/\(module)/build.gradle.kts", "plugins { kotlin(\"multiplatform\") }\nkotlin {\n  jvmToolchain(25)\n  jvm()\n}\n")
      try tree.write("src-kmp/\(module)/src/jvmTest/kotlin/T.kt", "class T\n")
    }
    try tree.write("src-kmp/apple-umbrella/build.gradle.kts", """
      import org.jetbrains.kotlin.gradle.plugin.mpp.apple.XCFramework
      plugins { kotlin("multiplatform") }
      kotlin {
        val xcf = XCFramework("FoyerKit")
        listOf(iosArm64(), iosSimulatorArm64()).forEach { it.binaries.framework { baseName = "FoyerKit"; xcf.add(this) } }
      }

      """)
    try tree.write("src-kmp/apple-umbrella/src/commonMain/kotlin/Umbrella.kt", "object Umbrella\n")
    try tree.write("src-kmp/app/build.gradle.kts", "plugins {\n  alias(libs.plugins.android.application)\n  kotlin(\"android\")\n}\nkotlin { jvmToolchain(25) }\n")
    try tree.write("src-kmp/app/src/test/kotlin/AppTest.kt", "class AppTest\n")
    try tree.write("src-kmp/app/src/androidTest/kotlin/AppDeviceTest.kt", "class AppDeviceTest\n")
    try tree.write("src-ios/Libraries/FoyerKit/Package.swift", """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(
        name: "FoyerKit",
        targets: [
          .binaryTarget(
            name: "FoyerKit",
            path: "../../../src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework"
          ),
          .target(name: "HomeShell", dependencies: [.target(name: "FoyerKit")]),
          .testTarget(name: "HomeShellTests", dependencies: ["HomeShell"]),
        ]
      )

      """)
    try tree.write("src-ios/Libraries/FoyerKit/Sources/HomeShell/HomeView.swift", "import SwiftUI\n")
    try tree.write("src-kmp/apple-umbrella/swift-consumer/Package.swift", """
      // swift-tools-version:6.0
      import PackageDescription
      let package = Package(
        name: "FoyerKitConsumer",
        targets: [
          .binaryTarget(name: "FoyerKit", path: "../build/XCFrameworks/app/FoyerKit.xcframework"),
          .testTarget(name: "BoundaryTests", dependencies: ["FoyerKit"]),
        ]
      )

      """)
    // A package of plain Swift that imports UIKit: macOS only, with nothing to wait for.
    try tree.write("src-ios/Libraries/Palette/Package.swift", "let package = Package(name: \"Palette\", targets: [.target(name: \"Palette\")])\n")
    try tree.write("src-ios/Libraries/Palette/Sources/Palette/Colors.swift", "#if os(iOS)\n@preconcurrency import UIKit\n#endif\n")
    // And one that runs anywhere.
    try tree.write("tools/Lint/Package.swift", "let package = Package(name: \"Lint\", targets: [.testTarget(name: \"LintTests\")])\n")
  }
}

@Suite("Adoption models the build")
struct BuildModelTests {
  func plan() throws -> (AdoptionPlan, TemporaryFolder) {
    let tree = try TemporaryFolder()
    try TutorialShapedTree.write(into: tree)
    return (AdoptionPlan(TreeSurvey.survey(root: tree.url, parity: nil)), tree)
  }

  /// The Android plugin's unit-test task is testDebugUnitTest, by plugin id or catalog alias, for
  /// an application or a library; a multiplatform module keeps jvmTest and a JVM module test.
  @Test func androidModulesRunTestDebugUnitTest() {
    func task(_ build: String, sets: [String] = ["test"]) -> String? {
      var module = GradleModule(path: "m", project: ":m", settingsFile: "settings.gradle.kts", settingsFolder: "", testSourceSets: sets)
      let script = BuildScript(build)
      module.isMultiplatform = GradleModule.appliesMultiplatform(script)
      module.hasJVMTarget = build.contains("jvm()")
      module.androidPlugin = module.isMultiplatform ? nil : GradleModule.appliedAndroidPlugin(script)
      return module.testTask
    }
    #expect(task("plugins { id(\"com.android.application\") }") == "testDebugUnitTest")
    #expect(task("apply plugin: 'com.android.library'") == "testDebugUnitTest")
    #expect(task("plugins { alias(libs.plugins.androidApplication) }") == "testDebugUnitTest")
    #expect(task("plugins { alias(libs.plugins.android.library) }") == "testDebugUnitTest")
    #expect(task("plugins { kotlin(\"jvm\") }") == "test")
    #expect(task("plugins { kotlin(\"multiplatform\"); id(\"com.android.library\") }\nkotlin { jvm() }", sets: ["commonTest"]) == "jvmTest")
    #expect(task("plugins { id(\"com.android.application\") }", sets: ["androidTest"]) == nil)
  }

  /// A module's build file gives its XCFramework names and its jvmToolchain.
  @Test func buildFileFacts() throws {
    let (_, tree) = try plan()
    let modules = GradleModule.modules(settingsFile: "src-kmp/settings.gradle.kts", root: tree.url)
    let umbrella = try #require(modules.first { $0.project == ":apple-umbrella" })
    #expect(umbrella.xcframeworks == ["FoyerKit"])
    #expect(umbrella.testTask == nil)
    #expect(modules.first { $0.project == ":ports" }?.jvmToolchain == 25)
    #expect(modules.first { $0.project == ":app" }?.androidPlugin == .application)
    #expect(GradleModule.xcframeworkTask("FoyerKit") == "assembleFoyerKitXCFramework")
    #expect(GradleModule.xcframeworkTask("") == "assembleXCFramework")
  }

  /// A package's binary targets resolve against its folder; a UIKit import anywhere in Sources/ or Tests/ counts.
  @Test func swiftPackageFacts() throws {
    let (_, tree) = try plan()
    let kit = try #require(SwiftPackage.read(manifestFile: "src-ios/Libraries/FoyerKit/Package.swift", root: tree.url))
    #expect(kit.binaryTargetPaths == ["src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework"])
    #expect(kit.hasBinaryTarget && !kit.importsUIKit)
    let palette = try #require(SwiftPackage.read(manifestFile: "src-ios/Libraries/Palette/Package.swift", root: tree.url))
    #expect(palette.importsUIKit && !palette.hasBinaryTarget && palette.macOSOnlyReason == "it imports UIKit")
    let lint = try #require(SwiftPackage.read(manifestFile: "tools/Lint/Package.swift", root: tree.url))
    #expect(lint.macOSOnlyReason == nil)
  }

  /// Issue 52, item 8: on the tutorial's tree without its publisher script,
  /// nothing duet knows writes the path the packages link: no XCFramework
  /// lane (it could not hand the framework on), the module built by its own
  /// lane, and one note saying what to add; no package claims a builder.
  @Test func withoutItsPublisherNoXCFrameworkLaneIsWritten() throws {
    let (plan, _) = try plan()
    func lane(_ name: String) -> AdoptionPlan.PlannedLane? { plan.lanes.first { $0.name == name } }
    #expect(plan.lanes.map(\.name) == [
      "kotlin-app", "kotlin-apple-umbrella", "kotlin-ports", "kotlin-subtrees-home-logic",
      "swift-FoyerKit", "swift-Palette", "swift-swift-consumer", "swift-Lint",
    ])
    let linked = "src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework"
    for name in ["swift-FoyerKit", "swift-swift-consumer"] {
      #expect(lane(name)?.needs == [], "\(name)")
      #expect(lane(name)?.reason.contains("it links \(linked), which no lane writes (see the note outside the manifest)") == true, "\(name)")
    }
    let notes = plan.outside.filter { $0.0 == linked }
    #expect(notes.count == 1)
    #expect(notes.first?.1.contains("so duet wrote no lane for XCFramework(\"FoyerKit\") of Gradle module :apple-umbrella; add one that publishes it") == true,
            "\(notes)")
  }

  /// The XCFramework lane is macOS only, in the Gradle pool, and every package linking it needs it;
  /// every Gradle lane of the one build shares the pool `gradle` of depth 1.
  @Test func xcframeworkLaneComesFirst() throws {
    let (_, tree) = try plan()
    try tree.write("scripts/publish_kit.sh", "#!/bin/sh\n./gradlew -p src-kmp :apple-umbrella:assembleFoyerKitReleaseXCFramework\n"
                   + "# and copies it to src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework\n")
    let plan = AdoptionPlan(TreeSurvey.survey(root: tree.url, parity: nil))
    func lane(_ name: String) -> AdoptionPlan.PlannedLane? { plan.lanes.first { $0.name == name } }
    #expect(plan.lanes.map(\.name) == [
      "kotlin-app", "xcframework-FoyerKit", "kotlin-ports", "kotlin-subtrees-home-logic",
      "swift-FoyerKit", "swift-Palette", "swift-swift-consumer", "swift-Lint",
    ])
    let xcframework = try #require(lane("xcframework-FoyerKit"))
    #expect(xcframework.step == .shell("sh scripts/publish_kit.sh"))
    #expect(xcframework.platforms == [.macos] && xcframework.pool == "gradle")
    #expect(xcframework.covers == ["src-kmp/apple-umbrella"])
    #expect(xcframework.outputs == ["src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework"])
    #expect(lane("kotlin-app")?.step == .shell("./gradlew :app:testDebugUnitTest --console=plain"))
    #expect(plan.lanes.filter { $0.dir == "src-kmp" }.allSatisfy { $0.pool == "gradle" })
    #expect(plan.pools == ["gradle": 1])
    for name in ["swift-FoyerKit", "swift-swift-consumer"] {
      #expect(lane(name)?.needs == ["xcframework-FoyerKit"], "\(name)")
      #expect(lane(name)?.platforms == [.macos], "\(name)")
      #expect(lane(name)?.reason.contains("which xcframework-FoyerKit builds, so it runs after it") == true)
    }
    #expect(lane("swift-Palette")?.platforms == [.macos] && lane("swift-Palette")?.needs == [])
    #expect(lane("swift-Lint")?.platforms == nil)
    #expect(lane("kotlin-ports")?.platforms == nil)

    // As a manifest, the run order puts the XCFramework before both packages.
    let manifest = try ManifestLoader.parse(
      try YAMLParser.parse(ManifestWriter.render(plan), file: "lanes/manifest.yaml"), path: "lanes/manifest.yaml",
      builtins: BuiltinSet.standard.vocabulary)
    let order = manifest.graph.topologicalOrder().map { manifest.lanes[$0].name }
    let first = try #require(order.firstIndex(of: "xcframework-FoyerKit"))
    #expect(first < order.firstIndex(of: "swift-FoyerKit")! && first < order.firstIndex(of: "swift-swift-consumer")!)
    #expect(manifest.pools == ["gradle": 1])
  }

  /// A package linking Gradle's own output folder gets that flavor's task; one linking a path
  /// only the tree's script publishes gets the script (run with bash when it is not executable).
  @Test func producerFollowsTheLinkedPath() throws {
    let (_, tree) = try plan()
    try tree.write("scripts/assemble_kit.sh", "#!/usr/bin/env bash\n# copies the framework to src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework\n")
    try tree.write("scripts/other.sh", "#!/bin/sh\necho unrelated\n")
    var plan = AdoptionPlan(TreeSurvey.survey(root: tree.url, parity: nil))
    var lane = try #require(plan.lanes.first { $0.name == "xcframework-FoyerKit" })
    #expect(lane.step == .shell("bash scripts/assemble_kit.sh"))
    #expect(lane.dir == nil && lane.platforms == [.macos] && lane.pool == "gradle")
    #expect(lane.reason.contains("which scripts/assemble_kit.sh publishes, so the lane runs it"))

    // Every package linking Gradle's release folder: the release task, the script unused.
    for package in ["src-ios/Libraries/FoyerKit/Package.swift", "src-kmp/apple-umbrella/swift-consumer/Package.swift"] {
      let text = try String(contentsOf: tree.url.appendingPathComponent(package), encoding: .utf8)
      try tree.write(package, text.replacingOccurrences(of: "XCFrameworks/app/", with: "XCFrameworks/release/"))
    }
    plan = AdoptionPlan(TreeSurvey.survey(root: tree.url, parity: nil))
    lane = try #require(plan.lanes.first { $0.name == "xcframework-FoyerKit" })
    #expect(lane.step == .shell("./gradlew :apple-umbrella:assembleFoyerKitReleaseXCFramework --console=plain"))
    #expect(plan.lanes.first { $0.name == "swift-FoyerKit" }?.needs == ["xcframework-FoyerKit"])
  }

  /// Duet trees keep their publisher scripts under `parity/scripts/` too (issue 30, item 4).
  @Test func publisherScriptUnderParity() throws {
    let (_, tree) = try plan()
    try tree.write("parity/scripts/assemble_kit.sh", "#!/bin/sh\n# publishes src-kmp/apple-umbrella/build/XCFrameworks/app/FoyerKit.xcframework\n")
    let plan = AdoptionPlan(TreeSurvey.survey(root: tree.url, parity: nil))
    let lane = try #require(plan.lanes.first { $0.name == "xcframework-FoyerKit" })
    #expect(lane.step == .shell("sh parity/scripts/assemble_kit.sh"))
    #expect(lane.inputs.contains("parity/scripts/assemble_kit.sh"))
  }

  /// Two Gradle builds get a pool each, so lanes of different builds may still run side by side.
  @Test func onePoolPerGradleBuild() throws {
    let tree = try TemporaryFolder()
    try tree.write("a/settings.gradle.kts", "include(\":x\")\n")
    try tree.write("a/x/build.gradle.kts", "plugins { kotlin(\"jvm\") }\n")
    try tree.write("settings.gradle", "include ':y'\n")
    try tree.write("y/build.gradle", "apply plugin: 'java'\n")
    let plan = AdoptionPlan(TreeSurvey.survey(root: tree.url, parity: nil))
    #expect(plan.pools == ["gradle-a": 1, "gradle-root": 1])
    #expect(plan.lanes.map(\.pool) == ["gradle-a", "gradle-root"])
  }
}

@Suite("Lane platforms")
struct LanePlatformTests {
  /// A lane for another OS names why it is skipped; a lane without platforms, or naming this one, runs.
  @Test func skipReason() {
    var lane = Lane(name: "x", step: .shell("true"), location: SourceLocation(file: "m", line: 1, column: 1))
    #expect(lane.platformSkipReason(on: .linux) == nil)
    lane.platforms = [.macos]
    #expect(lane.platformSkipReason(on: .linux) == "macOS only")
    #expect(lane.platformSkipReason(on: .macos) == nil)
    lane.platforms = [.linux]
    #expect(lane.platformSkipReason(on: .macos) == "Linux only")
  }

  /// `platforms:` reads back from a manifest; an unknown or empty list is an error naming line and column.
  @Test func manifestKey() throws {
    func load(_ text: String) throws -> Manifest {
      try ManifestLoader.parse(try YAMLParser.parse(text, file: "lanes/manifest.yaml"), path: "lanes/manifest.yaml", builtins: [:])
    }
    let manifest = try load("version: 1\nlanes:\n  - name: a\n    sh: x\n    platforms: [macos, linux, macos]\n")
    #expect(manifest.lanes[0].platforms == [.macos, .linux])
    do {
      _ = try load("version: 1\nlanes:\n  - name: a\n    sh: x\n    platforms: [macOS]\n  - name: b\n    sh: y\n    platforms: []\n")
      Issue.record("expected an error")
    } catch let error as DiagnosticError {
      #expect(error.diagnostics.map(\.description) == [
        "lanes/manifest.yaml:5:17: error: lane 'a': 'platforms' names unknown platform 'macOS', not one of macos, linux; did you mean 'macos'?",
        "lanes/manifest.yaml:8:16: error: lane 'b': 'platforms' must name at least one of macos, linux; leave it out for a lane that runs anywhere",
      ])
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}

@Suite("doctor: jvmToolchain against the JDK")
struct JVMToolchainCheckTests {
  /// The major version comes from the quoted version in `java -version`'s line, old `1.x` style included.
  @Test func majorVersion() {
    #expect(JVMToolchainCheck.major("openjdk version \"17.0.15\" 2025-04-15") == 17)
    #expect(JVMToolchainCheck.major("java version \"1.8.0_392\"") == 8)
    #expect(JVMToolchainCheck.major("openjdk version \"25-ea\" 2025-09-16") == 25)
    #expect(JVMToolchainCheck.major("no version here") == nil)
  }
}
