@testable import DuetFuzzSupport
import Foundation
import Testing

/// Issue 55, item 1, end to end on a real nginx and real git: each verify that
/// uploads puts its run under a slot of its commit; `duet history pull` on
/// another clone merges the runs of the last commits, once; `flaky`, `flaky
/// --tests`, `stats` and `report` then show the team's evidence and where
/// each run came from; the CI history job's `history merge` uploads what its
/// jobs did not; nothing of a machine's paths or env values reaches the server.
@Suite("The team's runs through the remote cache", .serialized)
struct TeamHistoryCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: unit
        sh: sh scripts/unit.sh
        inputs: [src/**, scripts/**]
        env-inputs: [FLAVOR]
        reports: [build/TEST-*.xml]
    """
  /// The test fails where `GITHUB_JOB` is set (on CI) and passes elsewhere, on the same inputs.
  static let script = """
    mkdir -p build
    if [ -n "$GITHUB_JOB" ]; then r='<failure message="expected: 2 but was: 1"/>'; code=1; else r=''; code=0; fi
    printf '<testsuite name="app.CartTest"><testcase classname="app.CartTest" name="addsItem" time="0.01">%s</testcase></testsuite>\\n' "$r" > build/TEST-app.CartTest.xml
    exit $code
    """
  static let flavor = "flavour-value-5ec2e7"

  /// A git repository holding the tree, one commit.
  func repository() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("scripts/unit.sh", Self.script)
    try tree.write("src/Cart.kt", "fun total() = 2\n")
    try tree.write(".gitignore", ".duet/\nbuild/\n")
    try git(["init", "-q", "-b", "main"], in: tree)
    try commit(tree, "start")
    return tree
  }

  func git(_ arguments: [String], in tree: FixtureTree) throws {
    let run = try shell((["git", "-c", "user.name=t", "-c", "user.email=t@t"] + arguments).map { "'\($0)'" }.joined(separator: " "), in: tree.url)
    #expect(run.status == 0, "git \(arguments): \(run.output)")
  }

  func commit(_ tree: FixtureTree, _ message: String) throws {
    try git(["add", "-A"], in: tree)
    try git(["commit", "-q", "--allow-empty", "-m", message], in: tree)
  }

  /// Another clone of `origin`, in a folder of its own.
  func clone(_ origin: FixtureTree) throws -> FixtureTree {
    let tree = try FixtureTree()
    try git(["clone", "-q", origin.url.path, tree.url.path], in: origin)
    return tree
  }

  func ci(_ server: NginxServer, job: String, upload: Bool = true) -> [String: String] {
    var environment = ["DUET_REMOTE_CACHE": server.url("cache"), "GITHUB_ACTIONS": "true", "GITHUB_JOB": job, "FLAVOR": Self.flavor]
    if upload { environment["DUET_REMOTE_CACHE_UPLOAD"] = "1" }
    return environment
  }

  /// CI's failing run travels to a laptop whose own run passed: one pull
  /// merges it, a second adds nothing, and every report shows the team's
  /// evidence: the lane and the test flaky, failing on CI.
  @Test func aCIRunIsPulledOnceAndReported() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    let origin = try repository()
    #expect(try origin.duet("verify", environment: ci(server, job: "linux-1")).status == 1)
    let laptop = try clone(origin)
    #expect(try laptop.duet("verify", environment: ["FLAVOR": Self.flavor]).status == 0)
    let reader = ["DUET_REMOTE_CACHE": server.url("cache")]
    let pull = try laptop.duet("history", "pull", environment: reader)
    #expect(pull.status == 0 && pull.stderr.isEmpty, "\(pull.stdout)\(pull.stderr)")
    #expect(pull.stdout == "duet history pull: 1 commit(s) of HEAD's first-parent history: 1 run(s) in \(server.url("cache")), 1 new merged (1 step(s)) from ci linux-1: 1\n")
    let again = try laptop.duet("history", "pull", environment: reader)
    #expect(again.stdout.contains("1 run(s) in \(server.url("cache")), 0 new merged (0 step(s))"), "\(again.stdout)")

    let host = "host \(ProcessInfo.processInfo.hostName)"
    let flaky = try laptop.duet("flaky")
    #expect(flaky.lines.contains("runs from: ci linux-1 (1), \(host) (1)"), "\(flaky.stdout)")
    #expect(flaky.stdout.contains("failed on") && flaky.lines.contains { $0.hasPrefix("  unit ") && $0.hasSuffix("ci linux-1") }, "\(flaky.stdout)")
    let tests = try laptop.duet("flaky", "--tests")
    #expect(tests.stdout.contains("app.CartTest.addsItem (lane unit): 2 run(s), 1 failure(s), 1 flaky fingerprint(s)"), "\(tests.stdout)")
    #expect(tests.stdout.contains("; failed on ci linux-1"), "\(tests.stdout)")
    #expect(try laptop.duet("stats").lines.contains("runs from: ci linux-1 (1), \(host) (1)"))
    let report = try laptop.duet("report")
    #expect(report.stdout.contains("unit (both outcomes on one fingerprint, 1 failure(s) in 2 run(s), failed on ci linux-1)"), "\(report.stdout)")
    #expect(try laptop.duet("history").stdout.components(separatedBy: "\n").count == 5)
  }

  /// Jobs, re-runs and laptops each record a run of one commit: none hides
  /// another. `--last 1` pulls HEAD's commit only. The history job's merge
  /// uploads the runs its jobs did not, and no run twice.
  @Test func runsOfOneCommitAccumulateAndTheHistoryJobUploadsTheRest() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    let origin = try repository()
    #expect(try origin.duet("verify", environment: ci(server, job: "linux-1")).status == 1)
    #expect(try clone(origin).duet("verify", environment: ci(server, job: "linux-2")).status == 1)
    try origin.write("src/Cart.kt", "fun total() = 3\n")
    try commit(origin, "second")
    let job = try clone(origin)
    #expect(try job.duet("verify", environment: ci(server, job: "linux-3", upload: false)).status == 1)
    let slots = try entries(server)
    #expect(slots == 2, "two uploads of the first commit, none of the second yet")
    // The history job merges the job's store and uploads its run; a run already there is not uploaded again.
    let history = try clone(origin)
    let merge = try history.duet("history", "merge", job.url.appendingPathComponent(".duet/history.sqlite").path,
                                 environment: ci(server, job: "history"))
    #expect(merge.status == 0 && merge.stderr.isEmpty, "\(merge.stdout)\(merge.stderr)")
    #expect(try entries(server) == 3)
    #expect(try history.duet("history", "merge", job.url.appendingPathComponent(".duet/history.sqlite").path, environment: ci(server, job: "history")).status == 0)
    #expect(try entries(server) == 3)

    let laptop = try clone(origin)
    let reader = ["DUET_REMOTE_CACHE": server.url("cache")]
    let last = try laptop.duet("history", "pull", "--last", "1", environment: reader)
    #expect(last.stdout.contains("1 commit(s) of HEAD's first-parent history: 1 run(s)") && last.stdout.contains("from ci linux-3: 1"), "\(last.stdout)")
    let all = try laptop.duet("history", "pull", environment: reader)
    #expect(all.stdout.contains("2 commit(s) of HEAD's first-parent history: 3 run(s)") && all.stdout.contains("2 new merged"), "\(all.stdout)")
    #expect(all.stdout.contains("from ci linux-1: 1, ci linux-2: 1"), "\(all.stdout)")
  }

  /// What reaches the server holds no path of the machine that ran (its tree,
  /// its home) and no env-input value, nor the value's bare SHA-256; a reader
  /// holding `DUET_REMOTE_CACHE_KEY` refuses runs not signed with it (exit 1).
  @Test func nothingOfTheMachineTravelsAndAKeyIsChecked() throws {
    let server = try NginxServer.start()
    defer { server.stop() }
    let origin = try repository()
    var environment = ci(server, job: "linux-1")
    environment["HOME"] = origin.url.deletingLastPathComponent().path
    #expect(try origin.duet("verify", "--junit", origin.url.appendingPathComponent("junit.xml").path, environment: environment).status == 1)
    var uploaded = Data()
    let cas = server.stored("cas")
    for name in try FileManager.default.contentsOfDirectory(atPath: cas.path) {
      uploaded += try Data(contentsOf: cas.appendingPathComponent(name))
    }
    let text = String(decoding: uploaded, as: UTF8.self)
    #expect(text.contains("app.CartTest"), "the run was uploaded")
    for secret in [origin.url.path, origin.url.deletingLastPathComponent().path, Self.flavor, sha256(Self.flavor)] {
      #expect(!text.contains(secret), "the server holds \(secret)")
    }
    let refused = try clone(origin).duet("history", "pull", environment: ["DUET_REMOTE_CACHE": server.url("cache"), "DUET_REMOTE_CACHE_KEY": "team-key"])
    #expect(refused.status == 1 && refused.stderr.contains("not signed with DUET_REMOTE_CACHE_KEY"), "\(refused.stderr)")
    #expect(refused.stdout.contains("0 new merged"), "\(refused.stdout)")
  }

  /// The action entries on the server.
  func entries(_ server: NginxServer) throws -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: server.stored("ac").path).count) ?? 0
  }

  func sha256(_ text: String) -> String {
    let run = try? shell("printf '%s' '\(text)' | sha256sum | cut -d' ' -f1", in: URL(fileURLWithPath: "/tmp"))
    return run?.output.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
  }
}
