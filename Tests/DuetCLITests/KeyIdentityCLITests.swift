import Foundation
import Testing

/// Issue 51, items 8 and 9: a lane's key knows its tools by what they are, not
/// by when they were written or where they sit; item 12: duet's temporaries
/// never travel with a pass.
@Suite("Tools and the Android SDK in the key, by content; passes without duet's temporaries")
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

  /// A restore killed by `kill -9` leaves `.duet-tmp-XXXXXX` in the output
  /// folder: the next restore removes it, and the next pass neither stores it
  /// nor keeps it, so no later restore brings it back.
  @Test func aKilledRestoresTemporaryIsNeitherStoredNorKept() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: gen
          sh: mkdir -p build && cat src.txt > build/out.txt
          inputs: [src.txt]
          outputs: [build]
      """)
    try tree.write("src.txt", "v1\n")
    #expect(try tree.duet("verify").status == 0)
    try tree.write("build/.duet-tmp-Ab12Cd", "half a restore\n")
    let cached = try tree.duet("verify")
    #expect(cached.stdout.contains("✓ gen cached"), "\(cached.stdout)")
    #expect(!tree.exists("build/.duet-tmp-Ab12Cd"))

    try tree.write("build/.duet-tmp-Ef34Gh", "half a restore\n")
    try tree.write("src.txt", "v2\n")
    let ran = try tree.duet("verify")
    #expect(ran.status == 0 && !ran.stdout.contains("cached"), "\(ran.stdout)")
    #expect(!tree.exists("build/.duet-tmp-Ef34Gh"))
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("build"))
    let restored = try tree.duet("verify")
    #expect(restored.stdout.contains("✓ gen cached (restored 1 file"), "\(restored.stdout)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent("build").path) == ["out.txt"])
  }
}
