import Foundation
import Testing

/// The generated CI files run as the CI would (`tools/ci-emulate`) on
/// `Examples/Courier`, a Duet-shaped tree whose Kotlin build writes an
/// XCFramework-like folder that a Swift lane on another job reads, with stub
/// toolchains; and zizmor and check-jsonschema accept every generated file.
@Suite("Generated CI, run", .serialized)
struct GeneratedCIRunTests {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL

  /// A git repository holding a copy of Examples/Courier with both CI files generated.
  final class Pipeline {
    let folder: URL
    var tree: URL { folder.appendingPathComponent("tree") }
    let store: URL

    /// `extraLanes`: manifest text appended to the example's lanes before the files are generated.
    init(extraLanes: String = "") throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-ci-run-\(UUID().uuidString)").resolvingSymlinksInPath()
      store = folder.appendingPathComponent("store")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: GeneratedCIRunTests.repository.appendingPathComponent("Examples/Courier"), to: tree)
      if !extraLanes.isEmpty {
        let manifest = tree.appendingPathComponent("lanes/manifest.yaml")
        try (String(contentsOf: manifest, encoding: .utf8) + extraLanes).write(to: manifest, atomically: true, encoding: .utf8)
      }
      for system in ["github", "gitlab"] {
        let run = try runDuet(["workflow", system], in: tree)
        #expect(run.status == 0, "duet workflow \(system): \(run.stderr)")
      }
      try git("init", "-q", "-b", "main")
      try commit("the example")
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    @discardableResult
    func git(_ arguments: String...) throws -> String {
      let result = try CITools.run("/usr/bin/env", ["git", "-c", "user.name=t", "-c", "user.email=t@t"] + arguments, in: tree)
      #expect(result.status == 0, "git \(arguments): \(result.output)")
      return result.output
    }

    func commit(_ message: String) throws {
      try git("add", "-A")
      try git("commit", "-q", "--allow-empty", "-m", message)
    }

    /// Runs `file` as `system` would, as pipeline number `run`; the jobs' results.
    func run(_ system: String, _ file: String, number: Int) throws -> (jobs: [String: String], output: String) {
      let python = try #require(CITools.python())
      let result = try CITools.run(python, [
        GeneratedCIRunTests.repository.appendingPathComponent("tools/ci-emulate").path, system, tree.appendingPathComponent(file).path,
        "--tree", tree.path, "--store", store.path, "--run", String(number), "--duet", duetBinary.path,
      ], in: folder)
      let start = result.output.firstIndex(of: "{") ?? result.output.endIndex
      let json = try? JSONSerialization.jsonObject(with: Data(result.output[start...].utf8)) as? [String: Any]
      let jobs = try #require(json?["jobs"] as? [String: String], "ci-emulate: \(result.output)")
      return (jobs, result.output)
    }

    /// Each lane's outcome in pipeline `run`, from the JUnit reports the jobs
    /// uploaded (a lane whose job never ran has none).
    func laneOutcomes(run: Int) throws -> [String: String] {
      var outcomes: [String: String] = [:]
      for kind in ["artifacts", "reports"] {
        let folder = store.appendingPathComponent("run-\(run)/\(kind)")
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
          guard (path as NSString).lastPathComponent.hasPrefix("junit-"), path.hasSuffix(".xml") else { continue }
          outcomes.merge(GeneratedCIRunTests.outcomes(junit: try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8))) { $1 }
        }
      }
      return outcomes
    }

    /// Every job log of pipeline `run`, joined.
    func logs(run: Int) throws -> String {
      let folder = store.appendingPathComponent("run-\(run)/logs")
      return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map {
        "== \($0)\n" + (try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
      }.joined(separator: "\n")
    }
  }

  static let files = [("github", ".github/workflows/duet.yml"), ("gitlab", ".gitlab-ci.yml")]

  /// Each lane's outcome in a JUnit report duet wrote (its `outcome` property).
  static func outcomes(junit xml: String) -> [String: String] {
    var outcomes: [String: String] = [:]
    for match in xml.matches(of: /<testcase name="([^"]+)"[^>]*>\s*<properties>\s*<property name="outcome" value="([^"]+)"/) {
      outcomes[String(match.output.1)] = String(match.output.2)
    }
    return outcomes
  }

  /// On both systems every job passes, the Swift lane reads the framework the
  /// Kotlin job built, and a second pipeline restoring the saved store serves
  /// the unchanged lanes as cached.
  @Test(arguments: files) func everyJobPassesAndTheSecondPipelineIsCached(system: String, file: String) throws {
    let pipeline = try Pipeline()
    let first = try pipeline.run(system, file, number: 1)
    let logs = try pipeline.logs(run: 1)
    #expect(!first.jobs.isEmpty && first.jobs.values.allSatisfy { $0 == "success" }, "\(first.output)\n\(logs)")
    #expect(logs.contains("✓ swift-CourierKit"), "\(logs)")
    #expect(logs.contains("✓ kotlin-shared"))
    #expect(logs.contains("- ios-app skipped (macOS only)"))
    let second = try pipeline.run(system, file, number: 2)
    #expect(second.jobs.values.allSatisfy { $0 == "success" }, "\(second.output)")
    let again = try pipeline.logs(run: 2)
    #expect(again.contains("✓ kotlin-shared cached"), "\(again)")
    #expect(again.contains("✓ swift-CourierKit cached"), "\(again)")
  }

  /// Issue 38: lanes are gated one by one, not by their jobs. With a lane that
  /// fails at the first level (`mocks`), every lane that does not need it still
  /// runs in the pipeline, the one that needs it is skipped naming the lane and
  /// its job, and each lane's outcome equals that of a local `duet verify`.
  @Test(arguments: files) func aFailingLaneLosesOnlyTheLanesThatNeedIt(system: String, file: String) throws {
    let extra = """
      - name: mocks
        sh: echo "mocks are stale" >&2; exit 1
      - name: mocks-report
        sh: echo "mocks report"
        needs: [mocks]
      - name: theme-test
        sh: echo "themes pass"
        needs: [kotlin-shared]

    """
    let pipeline = try Pipeline(extraLanes: extra)
    let run = try pipeline.run(system, file, number: 1)
    let logs = try pipeline.logs(run: 1)
    let inCI = try pipeline.laneOutcomes(run: 1)
    // The same tree, verified locally with a JDK 25 on PATH (as the CI sets one up).
    let local = pipeline.folder.appendingPathComponent("local")
    try FileManager.default.copyItem(at: pipeline.tree, to: local)
    let bin = pipeline.folder.appendingPathComponent("jdk/bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try writeClosingOnExec(Array("#!/bin/sh\necho 'openjdk version \"25\" (stub)' >&2\n".utf8), to: bin.appendingPathComponent("java").path)
    chmod(bin.appendingPathComponent("java").path, 0o755)
    let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let verified = try runDuet(["verify", "--strict", "--junit", ".duet/local.xml"], in: local, environment: ["PATH": path, "DUET_HISTORY": ".duet/local.sqlite"])
    #expect(verified.status == 1, "\(verified.stdout)\(verified.stderr)")
    let expected = Self.outcomes(junit: try String(contentsOf: local.appendingPathComponent(".duet/local.xml"), encoding: .utf8))
    #expect(expected["mocks"] == "fail" && expected["swift-CourierKit"] == "pass" && expected["mocks-report"] == "skipped", "\(expected)")
    #expect(inCI == expected, "\(run.output)\n\(logs)")
    #expect(logs.contains("- mocks-report skipped (needs mocks, failed in job linux-1)"), "\(logs)")
    // Issue 52, item 6a: the job holding a lane an earlier job's failure kept
    // from running is not green: every job with a lane that did not pass fails.
    let blockedJob = logs.components(separatedBy: "\n== ").first { $0.contains("- mocks-report skipped (needs mocks") }
      .map { String($0.prefix { $0 != "\n" }).replacingOccurrences(of: "== ", with: "").replacingOccurrences(of: ".log", with: "") }
    #expect(blockedJob.flatMap { run.jobs[$0] } == "failure", "\(String(describing: blockedJob)): \(run.output)")
    #expect(logs.contains("1 not run for an earlier job: mocks-report (needs mocks, failed in job linux-1)"), "\(logs)")
    #expect(run.jobs["duet-history"] == (system == "github" ? "failure" : "success"), "\(run.output)")
  }

  /// Issue 52, item 6b: only verdicts duet recorded are believed across jobs.
  /// A lane of `linux-1` writes a later "failed" for `xcframework-Courier`
  /// (which passes) into its job's store; the store no longer matches the seal
  /// duet wrote after the job's lanes ended, so `linux-2` treats `linux-1` as
  /// not run: `swift-CourierKit` is skipped saying why, its job fails, and the
  /// history job merges none of the forged store.
  @Test(arguments: files) func aForgedVerdictMakesTheUpstreamJobNotRun(system: String, file: String) throws {
    let forge = "for s in .duet/ci/history-*.sqlite; do sqlite3 \"$s\" \"INSERT INTO runs (id, log_id, started, ended, command, root, host, outcome, jobs, duet_version) "
      + "VALUES ('forged', 'forged', 4000000000, 4000000001, 'duet verify', '/', 'ci', 'fail', 1, '0'); "
      + "INSERT INTO steps (run_id, lane, attempt, started, duration, attempt_outcome, lane_outcome, exit_code) "
      + "VALUES ('forged', 'xcframework-Courier', 1, 4000000000, 1, 'fail', 'fail', 1)\"; done"
    let extra = """
      - name: forger
        sh: '\(forge.replacingOccurrences(of: "'", with: "''"))'

    """
    let pipeline = try Pipeline(extraLanes: extra)
    let run = try pipeline.run(system, file, number: 1)
    let logs = try pipeline.logs(run: 1)
    let inCI = try pipeline.laneOutcomes(run: 1)
    #expect(inCI["forger"] == "pass" && inCI["xcframework-Courier"] == "pass", "\(inCI)\n\(logs)")
    #expect(inCI["swift-CourierKit"] == "skipped", "\(inCI)\n\(logs)")
    #expect(logs.contains("- swift-CourierKit skipped (needs xcframework-Courier, not run in job linux-1 (its verdicts do not verify))"), "\(logs)")
    #expect(!logs.contains("failed in job linux-1"), "\(logs)")
    #expect(logs.contains("the history store of job linux-1 does not verify: it holds runs duet did not record in that job"), "\(logs)")
    #expect(run.jobs["linux-2"] == "failure", "\(run.output)")
    #expect(logs.contains("its verdicts do not verify: it holds runs duet did not record in that job"), "\(logs)")
    // The refused store fails the history job on both systems, after every
    // other store is merged and `duet flaky` printed: GitLab's loop stopped at
    // the first refused store (bash -e), so linux-2's runs were never merged.
    #expect(run.jobs["duet-history"] == "failure", "\(run.output)")
    #expect(logs.contains("history-linux-2.sqlite: 1 new run(s)"), "\(logs)")
  }

  /// Issue 52, item 7: when the lane that hands an output on (the
  /// XCFramework) fails, every other lane of its job still runs and is judged:
  /// GitLab runs a job's script in one shell with `set -e`, and the job's exit
  /// is the lanes' verdict; GitHub runs each step `if: always()`.
  @Test(arguments: files) func aFailedHandOffStillRunsTheJobsOtherLanes(system: String, file: String) throws {
    let pipeline = try Pipeline()
    let manifest = pipeline.tree.appendingPathComponent("lanes/manifest.yaml")
    let text = try String(contentsOf: manifest, encoding: .utf8)
      .replacingOccurrences(of: "sh: src-kmp/gradlew -p src-kmp :apple-umbrella:assembleCourierXCFramework", with: "sh: echo 'the framework build broke' >&2; exit 1")
    try text.write(to: manifest, atomically: true, encoding: .utf8)
    for system in ["github", "gitlab"] { #expect(try runDuet(["workflow", system], in: pipeline.tree).status == 0) }
    try pipeline.commit("the framework build breaks")
    let run = try pipeline.run(system, file, number: 1)
    let inCI = try pipeline.laneOutcomes(run: 1)
    let logs = try pipeline.logs(run: 1)
    #expect(inCI["xcframework-Courier"] == "fail", "\(inCI)\n\(logs)")
    #expect(inCI["kotlin-shared"] == "pass", "\(inCI)\n\(logs)")
    #expect(run.jobs.values.contains("failure"), "\(run.output)")
  }

  /// Issue 38: a lane that needs the Android SDK (`requires: [android-sdk]`)
  /// runs in CI, where duet verifies with `--strict`: the GitHub job sets the
  /// SDK up (`android-actions/setup-android`), the GitLab job installs the
  /// command-line tools into its cached `.android-sdk/`; other jobs set up none.
  @Test(arguments: files) func androidLanesGetTheSDK(system: String, file: String) throws {
    let extra = """
      - name: kotlin-android
        sh: test -d "$ANDROID_HOME" && echo "the Android SDK at $ANDROID_HOME"
        requires: [java, android-sdk]

    """
    let pipeline = try Pipeline(extraLanes: extra)
    let run = try pipeline.run(system, file, number: 1)
    let logs = try pipeline.logs(run: 1)
    #expect(run.jobs.values.allSatisfy { $0 == "success" }, "\(run.output)\n\(logs)")
    #expect(logs.contains("✓ kotlin-android"), "\(logs)")
    let text = try String(contentsOf: pipeline.tree.appendingPathComponent(file), encoding: .utf8)
    let setups = text.components(separatedBy: system == "github" ? "android-actions/setup-android@" : "--licenses >/dev/null").count - 1
    #expect(setups == 1, "\(text)")
  }

  /// Issue 38: the emulator judges jobs as GitHub does. A job without `if:`
  /// runs only when every job before it, directly or through another,
  /// succeeded (`success()` is implied, and judges ancestors: `d` is skipped
  /// though its one need passed); a status function in `if:` replaces it.
  @Test func emulatorAppliesGitHubJobRules() throws {
    let pipeline = try Pipeline()
    let workflow = """
      on: push
      jobs:
        a: {runs-on: ubuntu-latest, steps: [{run: exit 1}]}
        b: {runs-on: ubuntu-latest, needs: [a], steps: [{run: "true"}]}
        c: {runs-on: ubuntu-latest, needs: [a], if: "${{ !cancelled() }}", steps: [{run: "true"}]}
        d: {runs-on: ubuntu-latest, needs: [c], steps: [{run: "true"}]}
        e: {runs-on: ubuntu-latest, needs: [c], if: "${{ !cancelled() && needs.c.result == 'success' }}", steps: [{run: "true"}]}
        f: {runs-on: ubuntu-latest, needs: [b], if: "always()", steps: [{run: "true"}]}
        g: {runs-on: ubuntu-latest, needs: [e], if: "github.ref_name == 'main'", steps: [{run: "true"}]}
      """
    try workflow.write(to: pipeline.tree.appendingPathComponent("rules.yml"), atomically: true, encoding: .utf8)
    let run = try pipeline.run("github", "rules.yml", number: 1)
    #expect(run.jobs == ["a": "failure", "b": "skipped", "c": "success", "d": "skipped", "e": "success", "f": "success", "g": "skipped"], "\(run.output)")
  }

  /// Without the step that hands the framework on, the Swift lane's job fails:
  /// the hand-off is what makes it pass.
  @Test(arguments: files) func withoutTheHandOffTheConsumerFails(system: String, file: String) throws {
    let pipeline = try Pipeline()
    let path = pipeline.tree.appendingPathComponent(file)
    let text = try String(contentsOf: path, encoding: .utf8)
    var lines = text.components(separatedBy: "\n")
    if system == "github" {
      let start = try #require(lines.firstIndex(of: "      - name: Upload the outputs"))
      let end = try #require(lines[(start + 1)...].firstIndex { $0.hasPrefix("      - name:") })
      lines.removeSubrange(start..<end)
    } else {
      let count = lines.count
      lines.removeAll { $0 == "      - src-kmp/apple-umbrella/build/XCFrameworks" }
      #expect(lines.count == count - 1)
    }
    try lines.joined(separator: "\n").write(to: path, atomically: true, encoding: .utf8)
    try pipeline.commit("no hand-off")
    let run = try pipeline.run(system, file, number: 1)
    let consumer = run.jobs.filter { $0.key.hasPrefix("linux-") && $0.value == "failure" }
    #expect(!consumer.isEmpty, "\(run.output)")
    let logs = try pipeline.logs(run: 1)
    #expect(logs.contains("Courier.xcframework is missing") || logs.contains("no artifact named duet-outputs"), "\(logs)")
  }

  /// zizmor (offline, pedantic persona) finds nothing in the generated GitHub
  /// workflows, and both CI systems' schemas accept every generated file, for
  /// the example trees with grouped jobs and with one job per lane.
  @Test func lintersAcceptEveryGeneratedFile() throws {
    let pipeline = try Pipeline()
    var github: [URL] = [pipeline.tree.appendingPathComponent(".github/workflows/duet.yml")]
    var gitlab: [URL] = [pipeline.tree.appendingPathComponent(".gitlab-ci.yml")]
    for (system, output) in [("github", ".github/workflows/per-lane.yml"), ("gitlab", "per-lane.gitlab-ci.yml")] {
      let run = try runDuet(["workflow", system, "--one-job-per-lane", "--output", output], in: pipeline.tree)
      #expect(run.status == 0, "\(run.stderr)")
      if system == "github" { github.append(pipeline.tree.appendingPathComponent(output)) } else { gitlab.append(pipeline.tree.appendingPathComponent(output)) }
    }
    // Issue 38: a manifest whose shell commands hold the CI's template syntax and
    // `$VAR` text (run by duet in the job, never written into the file) gives files
    // both linters accept.
    let hostile = pipeline.folder.appendingPathComponent("hostile")
    try FileManager.default.createDirectory(at: hostile.appendingPathComponent("lanes"), withIntermediateDirectories: true)
    try """
      version: 1
      lanes:
        - name: a
          sh: echo "${{ github.event.pull_request.title }}" '$[[ inputs.x ]]' "$HOME"
          outputs: [build/$VAR]
        - name: b
          sh: cat build/$VAR
          needs: [a]
      """.write(to: hostile.appendingPathComponent("lanes/manifest.yaml"), atomically: true, encoding: .utf8)
    #expect(try runDuet(["workflow", "github"], in: hostile).status == 0)
    #expect(try runDuet(["workflow", "gitlab"], in: hostile).status == 0)
    github.append(hostile.appendingPathComponent(".github/workflows/duet.yml"))
    gitlab.append(hostile.appendingPathComponent(".gitlab-ci.yml"))
    for example in ["Examples/Foyer", "Examples/Atrium"] {
      let copy = pipeline.folder.appendingPathComponent(example.replacingOccurrences(of: "/", with: "-"))
      try FileManager.default.copyItem(at: Self.repository.appendingPathComponent(example), to: copy)
      #expect(try runDuet(["workflow", "github"], in: copy).status == 0)
      #expect(try runDuet(["workflow", "gitlab"], in: copy).status == 0)
      github.append(copy.appendingPathComponent(".github/workflows/duet.yml"))
      gitlab.append(copy.appendingPathComponent(".gitlab-ci.yml"))
    }
    github.append(Self.repository.appendingPathComponent("workflows/duet-lanes.yml"))
    github.append(Self.repository.appendingPathComponent("workflows/duet-verify.yml"))
    let zizmor = try #require(CITools.find("zizmor"))
    let lint = try CITools.run(zizmor, ["--offline", "--no-progress", "--persona", "pedantic"] + github.map(\.path), in: pipeline.folder)
    #expect(lint.status == 0, "zizmor: \(lint.output)")
    #expect(lint.output.contains("No findings"), "zizmor: \(lint.output)")
    let check = try #require(CITools.find("check-jsonschema"))
    for (schema, files) in [("vendor.github-workflows", github), ("vendor.gitlab-ci", gitlab)] {
      let result = try CITools.run(check, ["--builtin-schema", schema] + files.map(\.path), in: pipeline.folder)
      #expect(result.status == 0, "check-jsonschema \(schema): \(result.output)")
    }
  }
}

/// The tools the generated-CI tests run: looked for in `.build/venv/bin` (where
/// `tools/install-deps` puts them), then on `PATH`. A missing one fails the
/// test with the command that installs it; it never skips.
enum CITools {
  static let venv = GeneratedCIRunTests.repository.appendingPathComponent(".build/venv/bin")

  static func find(_ name: String) -> String? {
    let local = venv.appendingPathComponent(name).path
    if FileManager.default.isExecutableFile(atPath: local) { return local }
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
      let path = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    Issue.record("\(name) is not installed: run tools/install-deps (it installs \(name) into .build/venv)")
    return nil
  }

  /// A Python 3 that can import yaml (PyYAML), which tools/ci-emulate needs.
  static func python() -> String? {
    for candidate in [venv.appendingPathComponent("python3").path, "/usr/bin/python3", "python3"] {
      if let result = try? run("/usr/bin/env", [candidate, "-c", "import yaml"], in: URL(fileURLWithPath: "/")), result.status == 0 {
        return candidate
      }
    }
    Issue.record("no python3 with PyYAML: run tools/install-deps (it installs pyyaml into .build/venv)")
    return nil
  }

  /// Runs `program` with `arguments` in `folder`; stdout and stderr together.
  static func run(_ program: String, _ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
    process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
    process.currentDirectoryURL = folder
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
