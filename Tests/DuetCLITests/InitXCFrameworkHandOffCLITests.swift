import Foundation
import Testing

/// Issue 38, item 2: the XCFramework lane `duet init` writes lists as its
/// `outputs:` the path the Swift packages link, so the generated CI hands the
/// framework to their lanes; a linked path no known task writes is said so.
@Suite("duet init hands an XCFramework to the packages that link it")
struct InitXCFrameworkHandOffCLITests {
  /// A Gradle build whose `kit` module declares XCFramework("Kit"), and a
  /// package linking `linkedPath` (relative to the tree root).
  private func tree(linking linkedPath: String) throws -> FixtureTree {
    let tree = try FixtureTree()
    try tree.write("kmp/settings.gradle.kts", "rootProject.name = \"k\"\ninclude(\":kit\")\n")
    try tree.write("kmp/gradlew", "#!/bin/sh\necho \"gradle stub: $*\"\n")
    try tree.makeExecutable("kmp/gradlew")
    try tree.write("kmp/kit/build.gradle.kts", "plugins { kotlin(\"multiplatform\") }\nkotlin {\n  val xcf = XCFramework(\"Kit\")\n  iosArm64 { binaries.framework { xcf.add(this) } }\n}\n")
    try tree.write("ios/KitApp/Package.swift", """
      // swift-tools-version:5.9
      import PackageDescription
      let package = Package(name: "KitApp", targets: [
        .binaryTarget(name: "Kit", path: "../../\(linkedPath)"),
        .target(name: "Home", dependencies: ["Kit"]),
        .testTarget(name: "HomeTests", dependencies: ["Home"]),
      ])

      """)
    return tree
  }

  /// A package linking Gradle's release folder: the lane runs the release task
  /// and lists that path as its output, and `duet lanes` accepts the manifest.
  @Test func gradleFlavorPathIsTheOutput() throws {
    let tree = try tree(linking: "kmp/kit/build/XCFrameworks/release/Kit.xcframework")
    let run = try tree.duet("init")
    #expect(run.status == 0, "\(run.stderr)")
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(manifest.contains("assembleKitReleaseXCFramework"), "\(manifest)")
    #expect(manifest.contains("    outputs: [kmp/kit/build/XCFrameworks/release/Kit.xcframework]\n"), "\(manifest)")
    #expect(!run.stdout.contains("no task duet knows writes it"), "\(run.stdout)")
    let lanes = try tree.duet("lanes")
    #expect(lanes.status == 0, "\(lanes.stdout)\(lanes.stderr)")
    let doctor = try tree.duet("doctor", "--json")
    #expect(doctor.stdout.contains("kmp/kit/build/XCFrameworks/release/Kit.xcframework: linked by ios/KitApp, written by lane xcframework-Kit"), "\(doctor.stdout)")
    #expect(!doctor.stdout.contains("in no lane's outputs:"), "\(doctor.stdout)")
  }

  /// A package linking a path a script of the tree publishes: the script is
  /// the lane and that path its output.
  @Test func scriptPathIsTheOutput() throws {
    let tree = try tree(linking: "kmp/kit/build/XCFrameworks/app/Kit.xcframework")
    try tree.write("scripts/assemble_kit.sh", "#!/bin/sh\ncd kmp && ./gradlew :kit:assembleKitReleaseXCFramework\nmkdir -p kit/build/XCFrameworks/app\ncp -R kit/build/XCFrameworks/release/Kit.xcframework kmp/kit/build/XCFrameworks/app/Kit.xcframework\n")
    let run = try tree.duet("init")
    #expect(run.status == 0, "\(run.stderr)")
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(manifest.contains("sh scripts/assemble_kit.sh"), "\(manifest)")
    #expect(manifest.contains("    outputs: [kmp/kit/build/XCFrameworks/app/Kit.xcframework]\n"), "\(manifest)")
    #expect(try tree.duet("lanes").status == 0)
  }

  /// A package linking a path nothing known writes: no `outputs:` claims it,
  /// and `duet init` says which path and which package, on screen and in the file.
  @Test func unproducedPathIsSaid() throws {
    let tree = try tree(linking: "kmp/kit/build/XCFrameworks/app/Kit.xcframework")
    let run = try tree.duet("init")
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("outside the manifest"), "\(run.stdout)")
    #expect(run.stdout.contains("  kmp/kit/build/XCFrameworks/app/Kit.xcframework\n"), "\(run.stdout)")
    #expect(run.stdout.contains("linked by ios/KitApp, but no task duet knows writes it"), "\(run.stdout)")
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(!manifest.contains("outputs:"), "\(manifest)")
    #expect(manifest.contains("# Outside the manifest") && manifest.contains("linked by ios/KitApp"), "\(manifest)")
    // Issue 52, item 8: no lane that cannot work, and never both that a lane
    // builds the linked framework and that nothing does.
    #expect(!manifest.contains("name: xcframework-Kit"), "\(manifest)")
    #expect(!manifest.contains("builds, so it runs after it") && !run.stdout.contains("builds, so it runs after it"), "\(manifest)")
    #expect(run.stdout.components(separatedBy: "no task duet knows writes it").count == 2, "\(run.stdout)")
    #expect(manifest.contains("name: kotlin-kit"), "the module is still built: \(manifest)")
    #expect(try tree.duet("lanes").status == 0)
    // doctor says it too, as a problem: the package's lane cannot get the framework in CI.
    let doctor = try tree.duet("doctor")
    #expect(doctor.status != 0)
    #expect(doctor.stdout.contains("  kmp/kit/build/XCFrameworks/app/Kit.xcframework, which ios/KitApp links (lane swift-KitApp), is in no lane's outputs:, so CI cannot hand it to that lane"), "\(doctor.stdout)")
  }

  /// Issue 51, item 15: two packages linking one framework: its path is
  /// listed once in the lane's `outputs:`, and the manifest loads.
  @Test func aPathTwoPackagesLinkIsListedOnce() throws {
    let tree = try tree(linking: "kmp/kit/build/XCFrameworks/release/Kit.xcframework")
    try tree.write("ios/Other/Package.swift", try tree.read("ios/KitApp/Package.swift").replacingOccurrences(of: "KitApp", with: "Other"))
    let run = try tree.duet("init")
    #expect(run.status == 0, "\(run.stderr)")
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(manifest.contains("    outputs: [kmp/kit/build/XCFrameworks/release/Kit.xcframework]\n"), "\(manifest)")
    let lanes = try tree.duet("lanes")
    #expect(lanes.status == 0, "\(lanes.stdout)\(lanes.stderr)")
  }

  /// A hand-written manifest whose package lane does not need the lane that
  /// writes the framework: doctor names the missing need (CI would run the
  /// package's lane before, or without, the framework).
  @Test func doctorNamesAConsumerThatDoesNotNeedTheProducer() throws {
    let tree = try tree(linking: "kmp/kit/build/XCFrameworks/release/Kit.xcframework")
    try tree.write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - name: kit
          sh: kmp/gradlew -p kmp :kit:assembleKitReleaseXCFramework
          outputs: [kmp/kit/build/XCFrameworks]
        - name: app
          sh: swift test --package-path ios/KitApp
          covers: [ios/KitApp]

      """)
    let doctor = try tree.duet("doctor")
    #expect(doctor.stdout.contains("  lane app links kmp/kit/build/XCFrameworks/release/Kit.xcframework, which lane kit writes, but does not need it"), "\(doctor.stdout)")
    try tree.write("lanes/manifest.yaml", try tree.read("lanes/manifest.yaml").replacingOccurrences(of: "covers: [ios/KitApp]", with: "covers: [ios/KitApp]\n    needs: [kit]"))
    let fixed = try tree.duet("doctor", "--json")
    #expect(fixed.stdout.contains("written by lane kit"), "\(fixed.stdout)")
    #expect(!fixed.stdout.contains("does not need it"), "\(fixed.stdout)")
  }
}
