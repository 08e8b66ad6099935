import Foundation
import Testing

/// Issue 38, item 3: a lane that builds an Android module says it needs the SDK
/// (`requires: [android-sdk]`), and verify, doctor and init treat it as they
/// treat a missing program: skipped with the reason, failed under `--strict`.
@Suite("Android lanes need the SDK")
struct AndroidSDKCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: kotlin-app
        sh: echo built
        dir: src-kmp
        requires: [android-sdk]
    """

  /// No SDK named anywhere: verify skips the lane saying why, `--strict` fails it.
  @Test func skippedWithoutTheSDKFailedUnderStrict() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src-kmp/build.gradle.kts", "// nothing\n")
    let none = ["ANDROID_HOME": "", "ANDROID_SDK_ROOT": ""]
    let relaxed = try tree.duet("verify", environment: none)
    #expect(relaxed.status == 0, "\(relaxed.stdout)\(relaxed.stderr)")
    #expect(relaxed.stdout.contains("kotlin-app skipped (needs the Android SDK: ANDROID_HOME is not set)"), "\(relaxed.stdout)")
    #expect(relaxed.stdout.contains("needs the Android SDK"))
    let strict = try tree.duet("verify", "--strict", environment: none)
    #expect(strict.status == 1)
    #expect(strict.stdout.contains("duet verify: FAIL (1 failed: kotlin-app)"), "\(strict.stdout)")
  }

  /// `ANDROID_HOME` naming a file is no SDK; naming a folder, or `sdk.dir` in the
  /// lane folder's `local.properties`, lets the lane run.
  @Test func aFolderIsAnSDK() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src-kmp/build.gradle.kts", "// nothing\n")
    try tree.write("sdk-file", "not a folder\n")
    try tree.write("sdk/platforms/README", "an SDK\n")
    let file = tree.url.appendingPathComponent("sdk-file").path
    let notFolder = try tree.duet("verify", "--no-cache", environment: ["ANDROID_HOME": file, "ANDROID_SDK_ROOT": ""])
    #expect(notFolder.stdout.contains("kotlin-app skipped (needs the Android SDK: ANDROID_HOME names \(file), which is not a folder)"), "\(notFolder.stdout)")
    let folder = try tree.duet("verify", "--no-cache", "--strict", environment: ["ANDROID_HOME": "", "ANDROID_SDK_ROOT": tree.url.appendingPathComponent("sdk").path])
    #expect(folder.status == 0, "\(folder.stdout)")
    #expect(folder.stdout.contains("duet verify: PASS (1 passed)"), "\(folder.stdout)")
    try tree.write("src-kmp/local.properties", "sdk.dir=../sdk\n")
    let properties = try tree.duet("verify", "--no-cache", "--strict", environment: ["ANDROID_HOME": "", "ANDROID_SDK_ROOT": ""])
    #expect(properties.status == 0, "\(properties.stdout)")
  }

  /// doctor says what verify will do, in verify's words, and names no program `android-sdk`.
  @Test func doctorSaysWhatVerifyWillDo() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src-kmp/build.gradle.kts", "// nothing\n")
    let run = try tree.duet("doctor", environment: ["ANDROID_HOME": "", "ANDROID_SDK_ROOT": ""])
    #expect(run.status == 1)
    #expect(run.stdout.contains("lane kotlin-app: needs the Android SDK: ANDROID_HOME is not set (requires:; verify skips the lane, --strict fails it)"), "\(run.stdout)")
    #expect(!run.stdout.contains("android-sdk not found on PATH"), "\(run.stdout)")
    try tree.write("sdk/platforms/README", "an SDK\n")
    let found = try tree.duet("doctor", environment: ["ANDROID_HOME": tree.url.appendingPathComponent("sdk").path])
    #expect(found.stdout.contains("android sdk: sdk (from ANDROID_HOME)"), "\(found.stdout)")
    #expect(!found.stdout.contains("Android SDK"), "\(found.stdout)")
  }

  /// `init` writes `android-sdk` into the lane of an Android module, and only there.
  @Test func initWritesItForAndroidModules() throws {
    let tree = try FixtureTree()
    try DuetShapedTree.write(into: tree)
    #expect(try tree.duet("init").status == 0)
    let written = try tree.read("lanes/manifest.yaml")
    #expect(written.contains("requires: [java, android-sdk]"), "\(written)")
    #expect(written.components(separatedBy: "android-sdk").count == 2, "\(written)")
  }
}
