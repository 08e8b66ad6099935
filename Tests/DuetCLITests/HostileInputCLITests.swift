import Foundation
import Testing

@Suite("Hostile input through the binary: no crash, no hang, clear errors")
struct HostileInputCLITests {
  let twoLanes = """
    version: 1
    lanes:
      - name: a
        sh: 'true'
      - name: b
        sh: 'true'
    """

  /// Finding 3: `--shard` with a huge N neither crashes nor allocates per shard; a shard past the lane count is empty.
  @Test func hugeShardCounts() throws {
    let tree = try FixtureTree(manifest: twoLanes)
    for spec in ["9223372036854775807/9223372036854775807", "1/100000000000"] {
      let run = try runDuetSample(["verify", "--shard", spec], in: tree.url)
      #expect(run == FuzzRunEnd(status: 0, signaled: false, timedOut: false), "--shard \(spec)")
    }
    let dry = try tree.binary("verify", "--shard", "1/1000000000", "--dry-run", timeout: 20)
    #expect(dry.status == 0)
    #expect(dry.stdout.contains("duet verify --shard 1/1000000000: 1 of 2 lane(s)"))
    let past = try tree.binary("verify", "--shard", "3/1000000000", timeout: 20)
    #expect(past.status == 0)
    #expect(past.stdout.contains("no lane falls in this shard (2 lane(s) over 1000000000 shards)"))
  }

  /// Finding 3: YAML nested 40,000 deep in the manifest, the parity manifest or the token config is exit 2 naming line:col, not a crash.
  @Test func deepYAMLIsAnError() throws {
    let deep = String(repeating: "[", count: 40_000) + String(repeating: "]", count: 40_000)
    let manifest = try FixtureTree(manifest: "version: 1\nlanes: \(deep)\n")
    let run = try manifest.binary("lanes", timeout: 20)
    #expect(run.status == 2)
    #expect(run.stderr.contains("lanes/manifest.yaml:2:519: error: nesting deeper than 512 levels"))

    let parity = try FixtureTree()
    try parity.write("parity/manifest.yaml", "features: " + String(repeating: "{a: ", count: 40_000) + "1" + String(repeating: "}", count: 40_000) + "\n")
    let parityRun = try runDuetSample(["lanes"], in: parity.url)
    #expect(parityRun == FuzzRunEnd(status: 2, signaled: false, timedOut: false))

    let tokens = try FixtureTree(manifest: twoLanes)
    try tokens.write("parity/design-tokens.yaml", "version: 1\ncolors: \(deep)\n")
    let tokenRun = try tokens.binary("design-tokens", "--check", timeout: 20)
    #expect(tokenRun.status == 2)
    #expect(tokenRun.stderr.contains("parity/design-tokens.yaml:2:520: error: nesting deeper than 512 levels"))
  }

  /// Finding 4: `retries: 9223372036854775807` and `timeout: 99999999999999999999h` are manifest errors (exit 2), not a run that never ends.
  @Test func unboundedRetriesAndTimeouts() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: loop
          sh: 'false'
          retries: 9223372036854775807
          timeout: 99999999999999999999h
      """)
    let run = try tree.binary("verify", timeout: 20)
    #expect(run.status == 2)
    #expect(run.stderr.contains("lanes/manifest.yaml:5:14: error: lane 'loop': 'retries' must be at most 10"))
    #expect(run.stderr.contains("lanes/manifest.yaml:6:14: error: lane 'loop': 'timeout' must be a duration such as 90s, 10m or 1h, at most 7d"))
  }

  /// Finding 4: a 2,000-token alias ring is one error, quickly.
  @Test func aliasRingThroughTheBinary() throws {
    var config = "version: 1\nswift:\n  output: ios\n  engine: E\n  theme: T\ncolors:\n  - tokens:\n"
    for index in 1...2000 { config += "      - name: c\(index)\n        value: \"{c\(index == 2000 ? 1 : index + 1)}\"\n" }
    let tree = try FixtureTree(manifest: twoLanes)
    try tree.write("parity/design-tokens.yaml", config)
    let started = Date()
    let run = try tree.binary("design-tokens", "--check", timeout: 20)
    #expect(run.status == 2)
    #expect(run.stderr.components(separatedBy: "circular alias").count == 2)
    #expect(Date().timeIntervalSince(started) < 15)
  }

  /// Finding 6: a lane name too long for its log file is a manifest error; `.duet` a regular file refuses verify with a reason.
  @Test func lostLogsAreSaidOutLoud() throws {
    let long = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: \(String(repeating: "x", count: 300))\n    sh: echo hi\n")
    let run = try long.duet("verify")
    #expect(run.status == 2)
    #expect(run.stderr.contains("lanes/manifest.yaml:3:11: error:"))
    #expect(run.stderr.contains("at most 200 characters"))

    let file = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: talk\n    sh: echo hi; false\n")
    try file.write(".duet", "not a folder")
    let refused = try file.duet("verify")
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("refusing .duet: it is a regular file, not a folder"))
    #expect(!refused.stdout.contains("(no output)"))
  }

  /// Finding 7: env names with `=`, empty or with a NUL, and bare numbers or booleans for lists, are errors naming file:line:col.
  @Test func validationGapsThroughTheBinary() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      modules: 5
      lanes:
        - name: a
          sh: 'true'
          covers: 7
          requires: yes
          env: {"A=B": x, "": y, "C\\0D": z}
      """)
    let run = try tree.duet("lanes")
    #expect(run.status == 2)
    #expect(run.stderr.contains("got \"C\\0D\""))
    #expect(!run.stderr.contains("\u{0}"))
    for place in ["2:10", "6:13", "7:15", "8:11", "8:21", "8:28"] {
      #expect(run.stderr.contains("lanes/manifest.yaml:\(place): error:"), "\(place)")
    }
  }

  /// Finding 7: `spacing: 1e308` is refused, so no `1e+308f` reaches Kotlin.
  @Test func hugeSpacingIsRefused() throws {
    let tree = try FixtureTree(manifest: twoLanes)
    try tree.write("parity/design-tokens.yaml", "version: 1\nkotlin: {output: kmp, package: p, engine: e, palette: P}\nspacing: {x1: 1e308}\ncolors: []\n")
    let run = try tree.duet("design-tokens")
    #expect(run.status == 2)
    #expect(run.stderr.contains("parity/design-tokens.yaml:3:15: error: spacing step 'x1': must be a number of points from 0 to 100000"))
    #expect(!tree.exists("kmp/Spacing.kt"))
  }

  /// Finding 8: a manifest that is a FIFO is named as one (not "Permission denied"), and NUL or non-UTF-8 bytes are placed where they are.
  @Test func messagesNameTheRealProblem() throws {
    let fifo = try FixtureTree()
    try FileManager.default.createDirectory(at: fifo.url.appendingPathComponent("lanes"), withIntermediateDirectories: true)
    #expect(mkfifo(fifo.url.appendingPathComponent("lanes/manifest.yaml").path, 0o644) == 0)
    let run = try fifo.binary("lanes", timeout: 20)
    #expect(run.status == 2)
    #expect(run.stderr.contains("lanes/manifest.yaml: it is a FIFO (named pipe), not a regular file"))

    let bytes = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: a\u{0}b\n    sh: 'true'\n")
    let nul = try bytes.duet("lanes")
    #expect(nul.status == 2)
    #expect(nul.stderr.contains("lanes/manifest.yaml:3:12: error: lanes/manifest.yaml is not UTF-8 text: a NUL byte"))
  }

  /// Finding 8: the workflow command documents exit 1 for a file it cannot write.
  @Test func workflowExitCodesAreDocumented() throws {
    let tree = try FixtureTree(manifest: twoLanes)
    let help = try tree.duet("workflow", "--help")
    #expect(help.stdout.contains("--check found it stale or missing, or the file could not be written"), "\(help.stdout)")
  }
}
