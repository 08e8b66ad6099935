import Foundation
import Testing

/// Issue 30, item 5: a `parity/` folder marks a tree (a Duet tree may hold only
/// its token config there), and `doctor` checks the Android SDK an Android
/// module needs.
@Suite("parity/ marks a tree; doctor checks the Android SDK")
struct DuetTreeMarkersCLITests {
  /// A tree with only `parity/design-tokens.yaml` (duet-tools' golden tree's
  /// shape): `lanes`, `doctor` and `verify` find it and derive its token lane,
  /// as `design-tokens` already did.
  @Test func parityFolderIsATree() throws {
    let tree = try FixtureTree()
    try tree.write("parity/design-tokens.yaml", """
      version: 1
      kotlin: {output: gen, package: a.b, engine: a.b.engine, palette: Palette}
      colors:
        - tokens:
            - {name: brand, value: "#112233"}

      """)
    #expect(try tree.duet("design-tokens").status == 0)
    let lanes = try tree.duet("lanes")
    #expect(lanes.status == 0, "\(lanes.stderr)")
    #expect(lanes.stdout.contains("lanes derived from parity/; run duet init to pin them"), "\(lanes.stdout)")
    #expect(lanes.stdout.contains("design-tokens"))
    let doctor = try tree.duet("doctor")
    #expect(!doctor.stdout.contains("no tree"), "\(doctor.stdout)")
    #expect(doctor.stdout.contains("found by parity"), "\(doctor.stdout)")
    let verify = try tree.duet("verify")
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    #expect(verify.stdout.contains("✓ design-tokens"))
  }

  /// An Android application module a lane covers needs the SDK: without
  /// `sdk.dir` or `ANDROID_HOME` doctor names the problem and how to fix it;
  /// with `sdk.dir` it says where the SDK is.
  @Test func androidModuleNeedsTheSDK() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: kotlin-app, sh: ./gradlew :app:testDebugUnitTest, dir: android, covers: [android/app]}
      """)
    try tree.write("android/settings.gradle.kts", "include(\":app\")\n")
    try tree.write("android/app/build.gradle.kts", "plugins { id(\"com.android.application\") }\n")
    let missing = try tree.duet("doctor", environment: ["ANDROID_HOME": "", "ANDROID_SDK_ROOT": "", "COLUMNS": "300"])
    #expect(missing.stdout.contains("Android module(s) :app need the Android SDK: set ANDROID_HOME, or sdk.dir in android/local.properties"), "\(missing.stdout)")
    #expect(missing.status != 0)
    try tree.write("sdk/platforms/.keep", "")
    try tree.write("android/local.properties", "sdk.dir=\(tree.url.appendingPathComponent("sdk").path)\n")
    let found = try tree.duet("doctor", environment: ["ANDROID_HOME": "", "ANDROID_SDK_ROOT": "", "COLUMNS": "300"])
    #expect(found.stdout.contains("(from sdk.dir in android/local.properties) for :app"), "\(found.stdout)")
    #expect(!found.stdout.contains("need the Android SDK"))
  }
}
