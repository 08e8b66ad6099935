import Foundation
import Testing

/// Issue 51, items 8 and 9: a lane's key knows its tools by what they are, not
/// by when they were written or where they sit.
@Suite("Tools and the Android SDK in the key, by content")
struct KeyIdentityCLITests {
  /// A `requires:` program over 1 MiB swapped for another of the same size with
  /// its time kept (`cp -p`, `rsync -a`, `tar x`) is a changed program: the lane
  /// runs again and fails, where it was served its old pass before.
  @Test func aLargeToolSwappedWithItsTimeKeptIsSeen() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: lint
          sh: ./tools/lint
          requires: [./tools/lint]
          inputs: ["src/**"]
      """)
    try tree.write("src/a.txt", "a\n")
    let padding = "#" + String(repeating: "x", count: 1 << 20) + "\n"
    try tree.write("tools/lint", "#!/bin/sh\nexit 0\n" + padding)
    try tree.makeExecutable("tools/lint")
    #expect(try tree.duet("verify").status == 0)
    #expect(try tree.duet("verify").stdout.contains("✓ lint cached"))

    // `cp -p` of a tool as large, with other bytes and the old one's times.
    let tool = tree.url.appendingPathComponent("tools/lint").path
    var old = stat()
    #expect(stat(tool, &old) == 0)
    try tree.write("tools/lint.new", "#!/bin/sh\nexit 1\n" + padding)
    try tree.makeExecutable("tools/lint.new")
    var times = [old.st_atim, old.st_mtim]
    #expect(utimensat(AT_FDCWD, tool + ".new", &times, 0) == 0)
    #expect(rename(tool + ".new", tool) == 0)
    let swapped = try tree.duet("verify")
    #expect(swapped.status == 1, "\(swapped.stdout)")
    #expect(!swapped.stdout.contains("cached"), "\(swapped.stdout)")
  }

  /// The Android SDK is known by its packages' versions: the same SDK copied
  /// elsewhere keeps the pass; other versions at the same path do not.
  @Test func theAndroidSDKIsKnownByItsVersionsNotItsPath() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: kotlin-app
          sh: echo built
          dir: app
          inputs: ["app/src/**"]
          requires: [android-sdk]
      """)
    try tree.write("app/src/Main.kt", "fun main() {}\n")
    let sdks = try FixtureTree()
    for home in ["one", "two"] {
      try sdks.write("\(home)/platforms/android-34/source.properties", "Pkg.Desc=Android SDK Platform 34\nPkg.Revision=3\nAndroidVersion.ApiLevel=34\n")
      try sdks.write("\(home)/build-tools/34.0.0/source.properties", "Pkg.Revision=34.0.0\nPkg.Path=build-tools;34.0.0\n")
    }
    let one = ["ANDROID_HOME": sdks.url.appendingPathComponent("one").path, "ANDROID_SDK_ROOT": ""]
    let two = ["ANDROID_HOME": sdks.url.appendingPathComponent("two").path, "ANDROID_SDK_ROOT": ""]
    let first = try tree.duet("verify", environment: one)
    #expect(first.stdout.contains("✓ kotlin-app"), "\(first.stdout)")
    let elsewhere = try tree.duet("verify", environment: two)
    #expect(elsewhere.stdout.contains("✓ kotlin-app cached"), "\(elsewhere.stdout)")

    // Another platform revision where the first SDK was.
    try sdks.write("one/platforms/android-34/source.properties", "Pkg.Desc=Android SDK Platform 34\nPkg.Revision=4\nAndroidVersion.ApiLevel=34\n")
    let replaced = try tree.duet("verify", "--dry-run", environment: one)
    #expect(replaced.stdout.contains("kotlin-app  runs  a required program changed (android-sdk)"), "\(replaced.stdout)")
  }
}
