import Foundation
import Testing
@testable import DuetApp
@testable import DuetSupport

/// Issue 52, item 9: what the watch counts as a change.
@Suite("Watched changes")
struct WatchedChangesTests {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("duet-changes-\(UUID().uuidString)")

  func write(_ path: String, _ text: String = "x\n") throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: false, encoding: .utf8)
  }

  /// A file named by events that was not there when the run started and is
  /// not there now (sed -i's temporary) is none; an edit, a new file and a
  /// removed one are changes; a file written back as it was seen is none.
  @Test func onlyWhatDiffersFromWhatTheRunSaw() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try write("lanes/manifest.yaml", "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    try write("src/a.swift")
    try write("src/gone.swift")
    try write("src/same.swift")
    let saw = TreeScan.scan("", root: root.path, ignoring: [".duet"])
    let changes = WatchedChanges(root: root, saw: saw)
    try write("src/a.swift", "let a = 2\n")
    try write("src/new.swift")
    try FileManager.default.removeItem(at: root.appendingPathComponent("src/gone.swift"))
    let files = ["src/a.swift", "src/gone.swift", "src/new.swift", "src/same.swift", "src/sedAb12Cd"]
    #expect(changes.changes(files) == ["src/a.swift", "src/gone.swift", "src/new.swift"])
  }

  /// The lanes' declared outputs and reports and a Gradle project's build
  /// folder are what runs write; a `build/` folder outside a Gradle project is a folder like any.
  @Test func whatLanesWriteIsNoChange() throws {
    defer { try? FileManager.default.removeItem(at: root) }
    try write("lanes/manifest.yaml", """
      version: 1
      lanes:
        - {name: a, sh: "true", outputs: [gen/], reports: ["reports/**/*.xml"]}
      """)
    try write("app/build.gradle.kts", "plugins {}\n")
    let changes = WatchedChanges(root: root, saw: nil)
    let files = ["app/.gradle/x", "app/build/classes/A.class", "app/src/A.kt", "gen/out.txt", "generated.txt",
                 "reports/unit/junit.xml", "tools/build/script.sh", ".kotlin/sessions/x"]
    #expect(changes.changes(files) == ["app/src/A.kt", "generated.txt", "tools/build/script.sh"])
  }
}
