@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// git in a fixture tree, for `--strict`'s tracked-file check.
enum CIGit {
  @discardableResult
  static func run(_ arguments: [String], in directory: URL) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-c", "user.email=ci@duet.invalid", "-c", "user.name=duet ci", "-c", "commit.gpgsign=false"] + arguments
    process.currentDirectoryURL = directory
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  static func commitAll(_ tree: FixtureTree) throws {
    try run(["init", "-q"], in: tree.url)
    try run(["add", "-A"], in: tree.url)
    #expect(try run(["commit", "-q", "-m", "fixture"], in: tree.url) == 0)
  }
}

/// Reads the lane names out of `duet verify --json`.
enum CIJSON {
  static func laneNames(_ stdout: String) throws -> [String] {
    let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
    let lanes = object?["lanes"] as? [[String: Any]] ?? []
    return lanes.compactMap { $0["name"] as? String }
  }
}

@Suite("duet in CI, end to end")
struct CIVerifyCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: tokens
        sh: echo tokens
      - name: kotlin
        sh: 'echo compiling; echo "Main.kt:3: error: 100% <wrong> & done"; exit 3'
        needs: [tokens]
      - name: theme
        sh: echo theme
        needs: [kotlin]
      - name: swift
        sh: 'if [ "$DUET_ATTEMPT" = 1 ]; then exit 1; fi; echo ok'
        retries: 1
    """

  /// --junit writes a well-formed file with a test case per lane, the failure's log tail, and no temporary file beside it.
  @Test func junitFile() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let run = try tree.duet("verify", "--junit", "reports/junit.xml")
    #expect(run.status == 1)
    let text = try tree.read("reports/junit.xml")
    let document = try XMLDocument(data: Data(text.utf8), options: [])
    let cases = try document.nodes(forXPath: "/testsuites/testsuite/testcase").compactMap { $0 as? XMLElement }
    #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue } == ["tokens", "kotlin", "theme", "swift"])
    let kotlin = try #require(cases.first { $0.attribute(forName: "name")?.stringValue == "kotlin" })
    #expect(kotlin.elements(forName: "failure").first?.stringValue?.contains("Main.kt:3: error: 100% <wrong> & done") == true)
    #expect(cases[2].elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue == "needs kotlin")
    #expect(try FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent("reports").path) == ["junit.xml"])
  }

  /// Under GITHUB_ACTIONS=true the log tail is a group, each failure an ::error and each flaky lane a ::warning, and the summary is appended to the step summary file.
  @Test func gitHubActionsOutput() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("summary.md", "earlier step\n")
    let summary = tree.url.appendingPathComponent("summary.md").path
    let run = try tree.duet("verify", environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary])
    #expect(run.status == 1)
    let lines = run.lines
    let group = try #require(lines.firstIndex { $0.hasPrefix("::group::duet lane kotlin: exit 3") })
    #expect(lines[group + 1].hasPrefix("::stop-commands::"))
    #expect(lines.contains("   Main.kt:3: error: 100% <wrong> & done"))
    #expect(lines.contains("::endgroup::"))
    #expect(lines.contains { $0.hasPrefix("::error title=duet lane kotlin::exit 3 · log: .duet/logs/") && $0.hasSuffix("%0AMain.kt:3: error: 100%25 <wrong> & done") })
    #expect(lines.contains { $0.hasPrefix("::warning title=duet lane swift is flaky::failed, then passed on attempt 2") })
    #expect(!run.stdout.contains("── kotlin"))
    #expect(lines.last(where: { !$0.isEmpty }) == "duet verify: FAIL (1 failed: kotlin; 1 skipped)")
    let markdown = try tree.read("summary.md")
    #expect(markdown.hasPrefix("earlier step\n## ❌ duet verify: FAIL (1 failed: kotlin; 1 skipped)"))
    #expect(markdown.contains("| swift | flaky |"))

    let plain = try tree.duet("verify")
    #expect(!plain.stdout.contains("::error"))
    #expect(plain.stdout.contains("── kotlin: exit 3"))
  }

  /// --strict fails a run whose lanes changed a tracked file and names it; without --strict the same run passes, and an untracked file never counts.
  @Test func strictTrackedFiles() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: writer
          sh: echo more >> tracked.txt && echo new > untracked.txt
        - name: reader
          sh: cat tracked.txt
      """)
    try tree.write("tracked.txt", "base\n")
    try tree.write("dirty.txt", "one\n")
    try CIGit.commitAll(tree)
    try tree.write("dirty.txt", "two\n")
    let strict = try tree.duet("verify", "--strict", "--junit", ".duet/junit.xml")
    #expect(strict.status == 1)
    #expect(strict.lines.last(where: { !$0.isEmpty }) == "duet verify: FAIL (--strict: lanes changed 1 tracked file(s): tracked.txt)")
    #expect(try tree.read(".duet/junit.xml").contains("lanes changed tracked files: tracked.txt"))
    #expect(try CIGit.run(["checkout", "-q", "tracked.txt"], in: tree.url) == 0)
    let json = try tree.duet("verify", "--strict", "--json")
    #expect(json.status == 1)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect(object?["changedTrackedFiles"] as? [String] == ["tracked.txt"])
    #expect(object?["outcome"] as? String == "fail")
    let loose = try tree.duet("verify")
    #expect(loose.status == 0)
  }

  /// Shards over several N run every lane exactly once, and with recorded durations the slow lane gets a shard of its own.
  @Test func shards() throws {
    // A sleep that is the point: the recorded durations decide the shards, so one lane is slow.
    var manifest = "version: 1\nlanes:\n  - name: slow\n    sh: sleep 0.4\n"
    for i in 1...5 { manifest += "  - name: quick\(i)\n    sh: 'true'\n" + (i > 1 ? "    needs: [quick\(i - 1)]\n" : "") }
    let tree = try FixtureTree(manifest: manifest)
    let all = ["slow", "quick1", "quick2", "quick3", "quick4", "quick5"]
    for n in [1, 2, 3, 4, 7] {
      var seen: [String] = []
      for i in 1...n {
        let run = try tree.duet("verify", "--shard", "\(i)/\(n)", "--json", environment: ["DUET_HISTORY": "off"])
        #expect(run.status == 0, "\(i)/\(n): \(run.stderr)")
        #expect(run.stderr.contains("duet verify --shard \(i)/\(n): "))
        seen += try CIJSON.laneNames(run.stdout)
      }
      #expect(seen.sorted() == all.sorted(), "N=\(n)")
    }
    // The durations recorded here decide the shards: a process of its own, so other
    // tests' in-process runs (one reaper queue, one process's CPU) cannot stretch them.
    #expect(try tree.binary("verify").status == 0)
    let first = try tree.duet("verify", "--shard", "1/2")
    #expect(first.lines.first?.hasPrefix("duet verify --shard 1/2: 1 of 6 lane(s) (by recorded durations") == true)
    #expect(first.lines.first?.hasSuffix("): slow") == true)
    let second = try tree.duet("verify", "--shard", "2/2", "--json")
    #expect(try CIJSON.laneNames(second.stdout) == ["quick1", "quick2", "quick3", "quick4", "quick5"])
  }

  /// A lane job's store is complete on its own when verify exits (no -wal left beside it), so CI can upload the one file and merge it elsewhere.
  @Test func storeIsClosedForUpload() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: a\n    sh: \"true\"\n")
    for i in 1...4 {
      let run = try tree.duet("verify", environment: ["DUET_HISTORY": ".duet/ci/history-\(i).sqlite"])
      #expect(run.status == 0)
      #expect(!tree.exists(".duet/ci/history-\(i).sqlite-wal"), "run \(i) left its last writes in the WAL")
    }
    let merged = try tree.duet(["history", "merge"] + (1...4).map { tree.url.appendingPathComponent(".duet/ci/history-\($0).sqlite").path })
    #expect(merged.status == 0, "\(merged.stderr)")
    #expect(try tree.duet("history", "--json").stdout.components(separatedBy: "\"outcome\" : \"pass\"").count - 1 == 4)
  }

  /// Bad --shard values and combinations are usage errors (exit 2); a shard with no lane runs nothing and passes.
  @Test func shardUsage() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: a\n    sh: 'true'\n")
    for bad in [["--shard", "3/2"], ["--shard", "x"], ["--shard", "1/2", "--lane", "a"], ["--shard", "1/2", "--failed"]] {
      let run = try tree.duet(["verify"] + bad)
      #expect(run.status == 2, "\(bad)")
      #expect(run.stderr.contains("duet verify: error: --shard"))
    }
    let empty = try tree.duet("verify", "--shard", "2/2", "--junit", "j.xml")
    #expect(empty.status == 0)
    #expect(empty.stdout == "duet verify --shard 2/2: no lane falls in this shard (1 lane(s) over 2 shards)\n")
    #expect(try tree.read("j.xml").contains("tests=\"0\""))
  }

  /// workflow github (one job per lane) writes the workflow, --check passes on it, fails naming the file when the manifest changes or the file is gone, and never writes.
  @Test func workflowAndCheck() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let path = ".github/workflows/duet.yml"
    let missing = try tree.duet("workflow", "github", "--one-job-per-lane", "--check")
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("\(path) is missing; run 'duet workflow github' to write it"))
    #expect(!tree.exists(path))

    let write = try tree.duet("workflow", "github", "--one-job-per-lane")
    #expect(write.status == 0)
    #expect(write.stdout == "duet workflow github: wrote \(path) (4 lane(s) in 4 job(s), duet's build and duet-history)\n")
    let text = try tree.read(path)
    let node = try YAMLParser.parse(text, file: path)
    #expect(node["jobs"]?["kotlin"]?["needs"]?.sequence?.compactMap(\.scalar) == ["duet-build-linux", "tokens"])
    #expect(node["jobs"]?["theme"]?["needs"]?.sequence?.compactMap(\.scalar) == ["duet-build-linux", "kotlin"])
    let version = try #require(try versionOfBinary(tree))
    #expect(text.contains("duet-\(version)-"))
    #expect(try tree.duet("workflow", "github", "--one-job-per-lane", "--check").status == 0)
    #expect(try tree.duet("workflow", "github", "--one-job-per-lane").stdout.contains("is already up to date"))

    try tree.write("lanes/manifest.yaml", Self.manifest + "\n  - name: extra\n    sh: 'true'\n")
    let stale = try tree.duet("workflow", "github", "--one-job-per-lane", "--check")
    #expect(stale.status == 1)
    #expect(stale.stderr.contains("\(path) is stale"))
    #expect(stale.stderr.contains("run 'duet workflow github' to regenerate it"))
    #expect(try tree.read(path) == text)

    let other = try tree.duet("workflow", "github", "--one-job-per-lane", "--output", "ci/lanes.yml")
    #expect(other.status == 0)
    #expect(try tree.duet("workflow", "github", "--one-job-per-lane", "--output", "ci/lanes.yml", "--check").status == 0)
    #expect(try tree.duet("workflow", "github", "--one-job-per-lane", "--output", "../escape.yml").status == 2)
    #expect(try tree.duet("workflow", "gitlub").status == 2)
  }

  func versionOfBinary(_ tree: FixtureTree) throws -> String? {
    // `duet 0.1.0 (commit ...)`: the version is the second word.
    let words = try tree.duet("--version").stdout.split(separator: " ")
    return words.count > 1 ? String(words[1]).trimmingCharacters(in: .whitespacesAndNewlines) : nil
  }

  /// graph prints the DAG as DOT by default and as Mermaid on request; an unknown format is a usage error.
  @Test func graph() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let dot = try tree.duet("graph")
    #expect(dot.status == 0)
    #expect(dot.stdout.contains("  \"tokens\" -> \"kotlin\";\n  \"kotlin\" -> \"theme\";\n"))
    let mermaid = try tree.duet("graph", "--format", "mermaid")
    #expect(mermaid.stdout == "flowchart LR\n  n0[\"tokens\"]\n  n1[\"kotlin\"]\n  n2[\"theme\"]\n  n3[\"swift\"]\n  n0 --> n1\n  n1 --> n2\n")
    let bad = try tree.duet("graph", "--format", "svg")
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("--format must be dot or mermaid, got 'svg'"))
  }
}

extension FixtureTree {
  func duet(_ arguments: [String], environment: [String: String] = [:]) throws -> DuetRun {
    try runDuet(arguments, in: url, environment: environment)
  }
}

@Suite("CI workflow files of this repository")
struct CIWorkflowFilesTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

  func load(_ path: String) throws -> (text: String, node: YAMLNode) {
    let text = try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
    return (text, try YAMLParser.parse(text, file: path))
  }

  func runs(_ node: YAMLNode, job: String) -> [String] {
    node["jobs"]?[job]?["steps"]?.sequence?.compactMap { $0["run"]?.scalar } ?? []
  }

  /// verify.yml installs make, caches .build, runs the README's test command (make check, which installs the
  /// rest, runs the tests and the strict verify) with JUnit, and uploads both files even on failure; on Linux
  /// in the README's toolchain and, issue 42 item 7, on macOS too, with every action pinned to a commit.
  @Test func repositoryWorkflow() throws {
    let (text, node) = try load(".github/workflows/verify.yml")
    for job in ["verify", "verify-macos"] {
      let steps = try #require(node["jobs"]?[job]?["steps"]?.sequence, "no job \(job)")
      #expect(runs(node, job: job).contains("make check VERIFY_ARGS=\"--junit .duet/junit.xml\""), "\(job)")
      #expect(steps.contains { ($0["uses"]?.scalar ?? "").hasPrefix("actions/cache@") && $0["with"]?["path"]?.scalar == ".build" }, "\(job)")
      let upload = try #require(steps.first { ($0["uses"]?.scalar ?? "").hasPrefix("actions/upload-artifact@") })
      #expect(upload["if"]?.scalar == "always()")
      #expect(upload["with"]?["path"]?.scalar == ".duet/junit.xml\n.duet/history.sqlite\n")
      #expect(upload["with"]?["include-hidden-files"]?.scalar == "true")
      let checkout = try #require(steps.first { ($0["uses"]?.scalar ?? "").hasPrefix("actions/checkout@") })
      #expect(checkout["with"]?["persist-credentials"]?.scalar == "false", "\(job)")
    }
    #expect(node["jobs"]?["verify"]?["container"]?.scalar == "swift:6.3.1")
    #expect(node["jobs"]?["verify-macos"]?["runs-on"]?.scalar == "macos-latest")
    #expect(runs(node, job: "verify").contains { $0.contains("apt-get install -y -q make\n") })
    // Every action by the commit of its release tag, as the generated workflows pin them.
    for path in [".github/workflows/verify.yml", ".github/workflows/release.yml"] {
      let workflow = try load(path).text
      for line in workflow.split(separator: "\n") where line.contains("uses: ") {
        #expect(line.range(of: #"uses: [\w./-]+@[0-9a-f]{40} # v[0-9.]+$"#, options: .regularExpression) != nil, "\(path): \(line)")
      }
    }
    #expect(text.contains("concurrency:"))
  }

  /// zizmor (offline, pedantic persona) finds nothing in this repository's own
  /// workflows, as in the generated ones (issue 42, item 7; it found 16).
  @Test func repositoryWorkflowsPassZizmor() throws {
    let zizmor = try #require(CITools.find("zizmor"))
    let files = [".github/workflows/verify.yml", ".github/workflows/release.yml"].map { Self.repository.appendingPathComponent($0).path }
    let lint = try CITools.run(zizmor, ["--offline", "--no-progress", "--persona", "pedantic"] + files, in: Self.repository)
    #expect(lint.status == 0, "zizmor: \(lint.output)")
    #expect(lint.output.contains("No findings"), "zizmor: \(lint.output)")
    let check = try #require(CITools.find("check-jsonschema"))
    let schema = try CITools.run(check, ["--builtin-schema", "vendor.github-workflows"] + files, in: Self.repository)
    #expect(schema.status == 0, "check-jsonschema: \(schema.output)")
  }

  /// The one-job template parses and runs the strict verify with JUnit, with duet from PATH.
  @Test func oneJobTemplate() throws {
    let (text, node) = try load("workflows/duet-verify.yml")
    #expect(text.hasPrefix("# duet-verify.yml: "))
    #expect(runs(node, job: "verify").contains("duet verify --strict --junit .duet/junit.xml"))
    #expect(!text.contains("tools/duet"))
  }

  /// duet-lanes.yml is, below its header, exactly what `duet workflow github` writes for workflows/example today.
  @Test func perLaneTemplateIsCurrent() throws {
    let (text, _) = try load("workflows/duet-lanes.yml")
    let marker = "# Generated by duet "
    let start = try #require(text.range(of: marker))
    let generated = String(text[start.lowerBound...])
    let manifest = try String(contentsOf: Self.repository.appendingPathComponent("workflows/example/lanes/manifest.yaml"), encoding: .utf8)
    let tree = try FixtureTree(manifest: manifest)
    #expect(try tree.duet("workflow", "github").status == 0)
    let fresh = try tree.read(".github/workflows/duet.yml")
    #expect(generated == fresh, "workflows/duet-lanes.yml is stale: run tools/workflow-templates")
  }
}
