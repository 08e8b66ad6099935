import Foundation
import Testing
@testable import DuetApp
@testable import DuetAdopt
@testable import DuetDoctor
@testable import DuetProcess
@testable import DuetSupport

/// `init`, `workflow`, `doctor` and `hook` as calls: a request in, a response
/// out, the files they write checked on disk.
struct AdoptCallTests {
  let tree: TemporaryFolder
  let environment: [String: String]

  init() throws {
    tree = try TemporaryFolder()
    environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
  }

  func writeManifest(_ lanes: String = "  - name: build\n    sh: echo built\n") throws {
    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n" + lanes)
  }

  func git(_ arguments: String) -> String? { ProcessOutput.git(arguments.split(separator: " ").map(String.init), in: tree.url, environment: testEnvironment) }

  /// init writes the manifest once; again it refuses (exit 1), and with `force` replaces it.
  @Test func initWritesThenRefusesThenReplaces() throws {
    let first = try initTree(InitRequest(root: tree.url))
    guard case .written(let plan, _, false, _) = first else {
      Issue.record("expected a new manifest")
      return
    }
    #expect(plan.lanes.isEmpty)
    let manifest = try String(contentsOf: tree.url.appendingPathComponent("lanes/manifest.yaml"), encoding: .utf8)
    #expect(manifest.contains("lanes:"))
    #expect(first.printout(TextFormat()).outText.hasSuffix("duet init: wrote lanes/manifest.yaml with one example lane (an echo); replace it with your checks, then 'duet verify' runs them\n"))
    let again = try initTree(InitRequest(root: tree.url))
    #expect(again.exitCode == 1)
    #expect(again.printout(TextFormat()).errText == "duet init: lanes/manifest.yaml already exists in \(tree.url.path); nothing written (pass --force to replace it)\n")
    var forced = InitRequest(root: tree.url)
    forced.force = true
    guard case .written(_, _, true, _) = try initTree(forced) else {
      Issue.record("expected the manifest replaced")
      return
    }
  }

  /// workflow writes the pipeline, finds it up to date, then stale after an edit.
  @Test func workflowWritesAndChecks() throws {
    try writeManifest()
    var request = WorkflowRequest(root: tree.url, environment: environment, system: .github, duetVersion: "0.0.1")
    guard case .written(".github/workflows/duet.yml", true, 1, let jobs) = try workflow(request).outcome else {
      Issue.record("expected the workflow written")
      return
    }
    #expect(jobs >= 1)
    request.check = true
    guard case .upToDate = try workflow(request).outcome else {
      Issue.record("expected it up to date")
      return
    }
    try tree.write(".github/workflows/duet.yml", "name: edited\n")
    let stale = try workflow(request)
    #expect(stale.exitCode == 1)
    #expect(stale.printout(TextFormat()).errText.hasPrefix("duet workflow github --check: .github/workflows/duet.yml is stale"))
    request.output = "ci/other.yml"
    guard case .missing("ci/other.yml") = try workflow(request).outcome else {
      Issue.record("expected it missing")
      return
    }
  }

  /// doctor looks programs up on the request's PATH, not this process's.
  @Test func doctorReadsThePathOfTheRequest() throws {
    try writeManifest("  - name: build\n    sh: duet-call-test-tool\n    requires: [duet-call-test-tool]\n")
    try tree.write("bin/duet-call-test-tool", "#!/bin/sh\nexit 0\n")
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tree.url.appendingPathComponent("bin/duet-call-test-tool").path)
    let found = try DoctorRequest.find(workingDirectory: tree.url, root: nil, environment: ["PATH": tree.url.appendingPathComponent("bin").path])
    #expect(found.foundBy == "lanes/manifest.yaml")
    let present = doctor(found)
    #expect(!present.report.problems.contains { $0.contains("duet-call-test-tool") })
    let missing = doctor(DoctorRequest(root: tree.url, foundBy: "--root", environment: ["PATH": "/nonexistent"]))
    #expect(missing.exitCode == 1)
    #expect(missing.report.problems.contains { $0.contains("duet-call-test-tool") })
  }

  /// hook install writes the pre-push hook into the repository; uninstall removes it.
  @Test func hookInstallsAndUninstalls() throws {
    try writeManifest()
    _ = git("init -q")
    let installed = hookInstall(HookInstallRequest(root: tree.url, duetPath: "/usr/local/bin/duet", environment: testEnvironment))
    guard case .installed(.written(let path, _), false, _, _) = installed else {
      Issue.record("expected a hook written, got \(installed.printout(TextFormat()).errText)")
      return
    }
    #expect(FileManager.default.fileExists(atPath: tree.url.appendingPathComponent(".git/hooks/pre-push").path))
    #expect(path.hasSuffix("pre-push"))
    let removed = try hookUninstall(root: tree.url, environment: testEnvironment)
    #expect(!removed.removed.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: tree.url.appendingPathComponent(".git/hooks/pre-push").path))
  }

  /// The hook run calls verify with a request of its own: before the first
  /// commit every lane runs; a failure stops the commit, said after verify's report.
  @Test func hookRunVerifiesWithoutACommandLine() throws {
    try writeManifest("  - name: build\n    sh: echo built\n  - name: test\n    sh: exit 3\n")
    _ = git("init -q")
    let said = Locked<[String]>([])
    let request = HookRunRequest(root: tree.url, kind: "pre-commit", environment: environment, duetVersion: "test")
    let response = try hookRun(request, say: { printout in said.withLock { $0.append(printout.outText) } })
    #expect(said.withLock { $0.joined() } == "duet hook: the first commit; verifying every lane\n")
    guard case .verified(.ran(let outcome, _), let verifyRequest, let after) = response else {
      Issue.record("expected a verify")
      return
    }
    #expect(verifyRequest.changeBase == nil)
    #expect(verifyRequest.environment == environment)
    #expect(outcome.exitCode == 1)
    #expect(after.errText == "duet hook: commit stopped by duet verify (exit 1); fix the lanes above, or skip the hook once with --no-verify\n")
    #expect(response.exitCode == 1)
  }

  /// pre-push with nothing on standard input has nothing to verify; an unknown kind is a usage error.
  @Test func hookRunStopsWhenNothingIsPushed() throws {
    try writeManifest()
    _ = git("init -q")
    let said = Locked<String>("")
    let response = try hookRun(HookRunRequest(root: tree.url, kind: "pre-push", environment: environment, duetVersion: "test"),
                               say: { printout in said.withLock { $0 += printout.outText } })
    guard case .stopped(0) = response else {
      Issue.record("expected the hook to stop")
      return
    }
    #expect(said.withLock { $0 }.hasSuffix("; nothing to verify\n"))
    #expect(throws: UsageError.self) {
      _ = try hookRun(HookRunRequest(root: tree.url, kind: "post-merge", environment: environment, duetVersion: "test"))
    }
  }
}
