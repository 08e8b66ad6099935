import Foundation
import Testing

@Suite("duet command line and lanes, end to end")
struct CommandLineCLITests {
  /// A manifest error is exit 2 with every problem as file:line:col, and nothing runs.
  @Test func manifestErrorsExit2() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: a
          sh: touch ran
          neds: [b]
        - name: b
          sh: x
          needs: [c]
      """)
    for command in ["verify", "lanes"] {
      let run = try tree.duet(command)
      #expect(run.status == 2)
      let errors = run.stderr.split(separator: "\n")
      #expect(errors.count == 2)
      #expect(errors[0].hasPrefix("lanes/manifest.yaml:5:5: error: lane 'a': unknown key 'neds'; did you mean 'needs'?"))
      #expect(errors[1] == "lanes/manifest.yaml:8:13: error: lane 'b': needs unknown lane 'c'")
      #expect(!tree.exists("ran"))
    }
  }

  /// No manifest here or above: a clear error and exit 2.
  @Test func noManifest() throws {
    let tree = try FixtureTree()
    let run = try tree.duet("verify")
    #expect(run.status == 2)
    #expect(run.stderr == "duet verify: error: no lanes/manifest.yaml or parity/manifest.yaml in \(tree.url.path) or any folder above it; run duet inside a tree, pass --root DIR, or write a manifest with 'duet init'\n")
  }

  /// The manifest is found from a subfolder, and --root overrides.
  @Test func rootDiscovery() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: pwd > where.txt}\n")
    try tree.write("deep/er/.keep", "")
    let fromBelow = try runDuet(["verify"], in: tree.url.appendingPathComponent("deep/er"))
    #expect(fromBelow.status == 0)
    #expect(try tree.read("where.txt") == tree.url.path + "\n")
    let other = try FixtureTree()
    let explicit = try runDuet(["lanes", "--root", tree.url.path], in: other.url)
    #expect(explicit.status == 0)
  }

  /// Unknown options and commands suggest the nearest; --help and --version work.
  @Test func usage() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes: []\n")
    let typo = try tree.duet("verify", "--jbos", "2")
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("duet verify: error: unknown option '--jbos'; did you mean '--jobs'?"))
    let badJobs = try tree.duet("verify", "--jobs", "0")
    #expect(badJobs.status == 2)
    let command = try tree.duet("verfy")
    #expect(command.status == 2)
    #expect(command.stderr.contains("unknown command 'verfy'; did you mean 'verify'?"))
    let help = try tree.duet("--help")
    #expect(help.status == 0 && help.stdout.contains("verify") && help.stdout.contains("lanes"))
    let verifyHelp = try tree.duet("verify", "--help")
    #expect(verifyHelp.status == 0 && verifyHelp.stdout.contains("--fail-fast"))
    let version = try tree.duet("--version")
    #expect(version.status == 0 && version.stdout.hasPrefix("duet "))
  }

  /// `duet lanes` lists lanes in run order and the modules no lane covers.
  @Test func lanesListing() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      modules: [extras/*]
      lanes:
        - name: kotlin
          sh: ./gradlew :app:test
          needs: [swift]
          covers: [src-kmp/app]
          timeout: 10m
          retries: 1
        - name: swift
          sh: swift test
          covers: [src-ios/Libraries/FoyerKit]
      """)
    try tree.write("src-kmp/settings.gradle.kts", "include(\":app\", \":theming\")\n")
    try tree.write("src-ios/Libraries/FoyerKit/Package.swift", "// swift-tools-version:5.9\n")
    try tree.write("extras/tool/readme.txt", "")
    let run = try tree.duet("lanes")
    #expect(run.status == 0)
    #expect(run.lines[0] == "lanes/manifest.yaml: 2 lane(s), in run order")
    #expect(run.lines[1].hasPrefix("  lane    step  needs  timeout  retries  command"))
    #expect(run.lines[2].hasPrefix("  swift   sh    -      default  0        swift test"))
    #expect(run.lines[3].hasPrefix("  kotlin  sh    swift  10m      1        ./gradlew :app:test"))
    #expect(run.lines[4] == "outside the manifest (2 module(s) no lane covers):")
    #expect(run.lines[5] == "  extras/tool      modules: extras/*")
    #expect(run.lines[6] == "  src-kmp/theming  src-kmp/settings.gradle.kts")

    let json = try tree.duet("lanes", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 2)
    #expect(object["outsideManifest"] as? [String] == ["extras/tool", "src-kmp/theming"])
    #expect((object["lanes"] as? [[String: Any]])?.map { $0["name"] as? String } == ["swift", "kotlin"])
  }
}
