@testable import DuetDoctor
@testable import DuetModel
import Foundation
import Testing

@Suite("duet doctor (the command line, in-process)")
struct DoctorCLITests {
  /// A folder of stub toolchain programs that print a version the way the real ones do.
  func stubBin(_ tools: [String: String]) throws -> FixtureTree {
    let bin = try FixtureTree()
    for (name, script) in tools {
      try bin.write(name, "#!/bin/sh\n\(script)\n")
      try bin.makeExecutable(name)
    }
    return bin
  }

  /// The report with line breaks and indentation folded into single spaces, so
  /// checks do not depend on where a long line wrapped.
  func flat(_ text: String) -> String {
    text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
  }

  static let allTools = [
    "swift": "echo 'Swift version 9.9-stub (swift-9.9-RELEASE)'; echo 'Target: x86_64-unknown-linux-gnu'",
    "java": "echo 'openjdk version \"21.0.1-stub\" 2025-01-01' >&2",
    "kotlinc": "echo 'info: kotlinc-jvm 2.0.0-stub (JRE 21)' >&2",
    "gradle": "echo 'Gradle 8.9-stub'",
  ]

  func recordedTree() throws -> FixtureTree {
    let tree = try FixtureTree()
    try DuetShapedTree.write(into: tree)
    #expect(try tree.duet("design-tokens").status == 0)
    #expect(try tree.duet("mocks", "--accept-body").status == 0)
    // One recorded run, so the store exists and has duet's schema.
    #expect(try tree.duet("verify", "--lane", "design-tokens").status == 0)
    return tree
  }

  /// A lane whose `platforms:` leaves this machine's out is skipped by verify
  /// here, so what it needs is no problem: doctor says so and passes (it failed
  /// on Linux for a macOS lane's xcodebuild); `--json` reports the same.
  @Test func anotherPlatformsLaneIsNoProblem() throws {
    let other = LanePlatform.current == .linux ? "macos" : "linux"
    let here = LanePlatform.current == .linux ? "Linux" : "macOS"
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: ios, sh: "xcodebuild-stub test", requires: [xcrun-stub], platforms: [\(other)]}
        - {name: lint, sh: "grep-stub -r x ."}
      """)
    let bin = try stubBin(Self.allTools.merging(["grep-stub": "true"]) { $1 })
    let run = try tree.duet("doctor", environment: ["PATH": bin.url.path, "COLUMNS": "200"])
    #expect(run.status == 0, "\(run.stdout)")
    let spoken = other == "macos" ? "macOS only" : "Linux only"
    #expect(flat(run.stdout).contains("lane ios \(spoken): verify skips it on \(here), so nothing it needs is checked lane lint grep-stub: on PATH"), "\(run.stdout)")
    #expect(run.stdout.hasSuffix("duet doctor: PASS (every lane has what it needs)\n"))

    let json = try tree.duet("doctor", "--json", environment: ["PATH": bin.url.path])
    #expect(json.status == 0)
    #expect(json.stdout.hasPrefix("{\n  \"lines\" : ["), "\(json.stdout)")
    let report = try JSONDecoder().decode(DoctorJSON.self, from: Data(json.stdout.utf8))
    #expect(report.pass && report.problems.isEmpty && report.summary == "duet doctor: PASS (every lane has what it needs)")
    #expect(report.root == tree.url.path)
    #expect(report.lines.contains(DoctorReport.Line(topic: "lane ios", text: "\(spoken): verify skips it on \(here), so nothing it needs is checked")))
    #expect(json.stdout.contains("\"schemaVersion\" : "))

    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n  - {name: lint, sh: \"grep-stub x\"}\n")
    let failing = try tree.duet("doctor", "--json", environment: ["PATH": "/nonexistent"])
    #expect(failing.status == 1)
    let broken = try JSONDecoder().decode(DoctorJSON.self, from: Data(failing.stdout.utf8))
    #expect(!broken.pass && broken.problems == ["lane lint: grep-stub not found on PATH"], "\(broken.problems)")

    // Issue 53, item 6: an absolute program keeps its leading slash (it was shown `usr/bin/env`).
    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n  - {name: env, sh: \"/usr/bin/env true\"}\n  - {name: gone, sh: \"/nonexistent/tool x\"}\n")
    let absolute = try tree.duet("doctor", "--json", environment: ["PATH": "/nonexistent"])
    let paths = try JSONDecoder().decode(DoctorJSON.self, from: Data(absolute.stdout.utf8))
    #expect(paths.lines.contains(DoctorReport.Line(topic: "lane env", text: "/usr/bin/env: /usr/bin/env, executable")), "\(paths.lines)")
    #expect(paths.problems == ["lane gone: /nonexistent/tool not found (looked for /nonexistent/tool)"], "\(paths.problems)")
  }

  /// On a tree where every lane has its programs: every topic reported, exit 0, and
  /// every line fits the 80 columns asked for (but one holding a single path, kept whole).
  @Test func healthyTree() throws {
    let tree = try recordedTree()
    let bin = try stubBin(Self.allTools)
    let run = try tree.duet("doctor", environment: ["PATH": bin.url.path, "COLUMNS": "80"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.isEmpty)
    let text = flat(run.stdout)
    #expect(run.lines.first == "duet doctor: \(tree.url.path)")
    #expect(text.contains("(found by parity/manifest.yaml) parity "))
    #expect(text.contains("parity/manifest.yaml: 2 feature(s), 1 chain(s), 2 mock generator row(s)"))
    #expect(text.contains("10 lane(s) derived from parity/manifest.yaml; run duet init to pin them"))
    #expect(text.contains("parity/design-tokens.yaml: 2 colour, 1 type, 0 gradient token(s), 1"))
    #expect(text.contains("2 mock file(s): 2 from parity/manifest.yaml"))
    #expect(text.contains(" lane kotlin-theming ./gradlew: src-kmp/gradlew, executable; java: on PATH lane "))
    #expect(text.contains(" lane kotlin-legacy gradle: on PATH; java: on PATH lane "))
    #expect(text.contains(" lane swift-HomeKit swift: on PATH lane swift-Lint swift: on PATH history "))
    #expect(text.contains(" lane mocks built-in: mocks --check "))
    #expect(text.range(of: #" history \.duet/history\.sqlite: \d+ KiB, schema 6 \(current\), integrity ok "#, options: .regularExpression) != nil)
    #expect(text.contains(" swift Swift version 9.9-stub (swift-9.9-RELEASE) (/"))
    #expect(text.contains(" java openjdk version \"21.0.1-stub\" 2025-01-01 ("))
    #expect(text.contains(" kotlinc kotlinc-jvm 2.0.0-stub (JRE 21) ("))
    #expect(run.stdout.hasSuffix("\nduet doctor: PASS (every lane has what it needs)\n"))
    // A path longer than the column stands whole on a line of its own; every other line fits.
    for line in run.lines where line.trimmingCharacters(in: .whitespaces).contains(" ") { #expect(line.count <= 80, "\(line)") }
  }

  /// On a broken tree: one line per problem after the verdict, exit 1, and what is
  /// missing but needed by no lane is reported without counting as a problem.
  @Test func brokenTree() throws {
    let tree = try recordedTree()
    try tree.makeExecutable("src-kmp/gradlew", false)
    try tree.write("parity/design-tokens.yaml", DuetShapedTree.tokenConfig.replacingOccurrences(of: "weight: 400", with: "weight: 450"))
    try tree.write(".duet/history.sqlite", String(repeating: "not a database ", count: 400))
    let bin = try stubBin(["swift": Self.allTools["swift"]!])
    let run = try tree.duet("doctor", environment: ["PATH": bin.url.path])
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    let lines = run.lines.filter { !$0.isEmpty }
    let verdict = try #require(lines.firstIndex(of: "duet doctor: FAIL (10 problem(s))"), "\(run.stdout)")
    let problems = Array(lines[(verdict + 1)...])
    #expect(problems.count == 10, "\(problems)")
    #expect(problems.contains("  lane kotlin-theming: src-kmp/gradlew is not executable (chmod +x src-kmp/gradlew)"))
    #expect(problems.contains("  lane kotlin-theming: java not found on PATH (requires:; verify skips the lane, --strict fails it)"))
    #expect(problems.contains("  lane kotlin-legacy: gradle not found on PATH (requires:; verify skips the lane, --strict fails it)"))
    #expect(problems.contains("  parity/design-tokens.yaml:23:17: error: font token 'body': 'weight' must be a multiple of 100 from 100 to 900, got \"450\""))
    #expect(problems.contains { $0.hasPrefix("  history: .duet/history.sqlite: ") && $0.hasSuffix("(the next verify moves it aside)") })
    #expect(flat(run.stdout).contains(" java not found on PATH (needed by lanes kotlin-legacy, kotlin-app, kotlin-feature-home, kotlin-theming) "))
    #expect(flat(run.stdout).contains(" kotlinc not found on PATH (no lane needs it) "))
    #expect(!run.stdout.contains("Fatal error") && run.stderr.isEmpty)
  }

  /// A manifest with errors is reported by its first error with the position, not a crash.
  @Test func manifestErrors() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: a\n    sh: ./run-tests\n    neds: [b]\n")
    let run = try tree.duet("doctor", environment: ["PATH": tree.url.path + "/no-bin"])
    #expect(run.status == 1)
    #expect(flat(run.stdout).contains(" lanes lanes/manifest.yaml: 1 error (below) "), "\(run.stdout)")
    #expect(run.stdout.contains("duet doctor: FAIL (1 problem(s))\n  lanes/manifest.yaml:5:5: error: lane 'a': unknown key 'neds'; did you mean 'needs'?"))
    #expect(flat(run.stdout).contains(" swift not found on PATH (no lane needs it) "))
  }

  /// Outside any tree the report still says what the machine has, and names the missing tree as its problem.
  @Test func outsideATree() throws {
    let folder = try FixtureTree()
    let bin = try stubBin(Self.allTools)
    let run = try folder.duet("doctor", environment: ["PATH": bin.url.path])
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(flat(run.stdout).contains(" tree none: no lanes/manifest.yaml or parity/manifest.yaml in "))
    #expect(flat(run.stdout).contains(" swift Swift version 9.9-stub (swift-9.9-RELEASE) "))
    #expect(run.stdout.hasSuffix("duet doctor: FAIL (1 problem(s))\n  no tree: run duet doctor inside one, pass --root DIR, or write a manifest with 'duet init'\n"))
    #expect(run.stderr.isEmpty)
  }
}
