import Foundation
import Testing

@Suite("History, flaky, stats and the cache, end to end")
struct HistoryCLITests {
  /// A lane whose outcome depends on a counter file, not on its inputs.
  let wobblyManifest = """
    version: 1
    lanes:
      - name: wobbly
        sh: 'n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; test $n -ge 1'
        inputs: [src/**]
    """

  /// Fail then pass with unchanged inputs: flaky. With changed inputs in between: not flaky.
  @Test func flakyNeedsTheSameFingerprint() throws {
    let same = try FixtureTree(manifest: wobblyManifest)
    try same.write("src/a.txt", "one")
    #expect(try same.duet("verify").status == 1)
    #expect(try same.duet("verify").status == 0)
    let report = try same.duet("flaky")
    #expect(report.status == 0)
    #expect(report.lines[0].hasPrefix("duet flaky: 2 run(s) in the window; flaky = one lane and one input fingerprint"))
    #expect(report.stdout.contains("  wobbly  2     1         1                   1      0"))

    let changed = try FixtureTree(manifest: wobblyManifest)
    try changed.write("src/a.txt", "one")
    #expect(try changed.duet("verify").status == 1)
    try changed.write("src/a.txt", "two")
    #expect(try changed.duet("verify").status == 0)
    let clean = try changed.duet("flaky", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(clean.stdout.utf8)) as? [String: Any])
    #expect((object["lanes"] as? [Any])?.isEmpty == true)
    #expect(object["schemaVersion"] as? Int == 2)
  }

  /// A lane with unchanged inputs since it last passed is cached; an input change or --no-cache runs it.
  @Test func cacheHitsAndMisses() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: build
          sh: 'cat src/a.txt > built.txt; echo ran >> runs.log'
          inputs: [src/*.txt]
        - name: after
          sh: echo after >> runs.log
          needs: [build]
      """)
    try tree.write("src/a.txt", "one")
    #expect(try tree.duet("verify").status == 0)
    let cached = try tree.duet("verify")
    #expect(cached.status == 0)
    #expect(cached.stdout.contains("✓ build cached"))
    #expect(cached.stdout.contains("build  cached"))
    #expect(try tree.read("runs.log") == "ran\nafter\nafter\n")
    let forced = try tree.duet("verify", "--no-cache")
    #expect(!forced.stdout.contains("cached"))
    try tree.write("src/a.txt", "two")
    let changed = try tree.duet("verify")
    #expect(!changed.stdout.contains("cached"))
    #expect(try tree.read("built.txt") == "two")
    let history = try tree.duet("history", "--json")
    let runs = try #require((try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])?["runs"] as? [[String: Any]])
    #expect(runs.count == 4)
  }

  /// Two verifies in one tree at once both record every step.
  @Test func concurrentVerifiesBothRecord() throws {
    var manifest = "version: 1\nlanes:\n"
    // A sleep that is the point: lanes that take time, so the two runs overlap.
    for i in 0..<30 { manifest += "  - {name: l\(i), sh: 'sleep 0.0\(i % 10)'}\n" }
    let tree = try FixtureTree(manifest: manifest)
    let group = DispatchGroup()
    let results = ResultBox()
    for _ in 0..<2 {
      group.enter()
      DispatchQueue.global().async {
        let run = try? runDuet(["verify", "--jobs", "4"], in: tree.url)
        results.add(run)
        group.leave()
      }
    }
    group.wait()
    #expect(results.all.count == 2)
    #expect(results.all.allSatisfy { $0?.status == 0 && $0?.stderr.isEmpty == true }, "\(results.all.map { "\($0?.status.description ?? "no run"): \($0?.stderr ?? "")" })")
    let stats = try tree.duet("stats", "--json")
    let lanes = try #require((try JSONSerialization.jsonObject(with: Data(stats.stdout.utf8)) as? [String: Any])?["lanes"] as? [[String: Any]])
    #expect(lanes.count == 30)
    #expect(lanes.allSatisfy { $0["runs"] as? Int == 2 })
  }

  /// A corrupt store is moved aside with a warning; the run still passes and is recorded anew.
  @Test func corruptStoreIsMovedAside() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true'}\n")
    try tree.write(".duet/history.sqlite", String(repeating: "garbage ", count: 1000))
    let run = try tree.duet("verify")
    #expect(run.status == 0)
    #expect(run.stderr.contains("duet verify: warning: history:"))
    #expect(run.stderr.contains("moved it to"))
    let files = try FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(".duet").path)
    #expect(files.contains { $0.hasPrefix("history.sqlite.corrupt-") })
    #expect(try tree.duet("history").stdout.contains("1 most recent run(s)"))
  }

  /// `history merge` imports a shard's runs once, however often it is merged.
  @Test func mergeTwice() throws {
    let shard = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true'}\n")
    #expect(try shard.duet("verify").status == 0)
    let main = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'true'}\n")
    #expect(try main.duet("verify").status == 0)
    let store = shard.url.appendingPathComponent(".duet/history.sqlite").path
    let first = try main.duet("history", "merge", store)
    #expect(first.status == 0)
    #expect(first.stdout.contains("1 new run(s), 1 step(s)"))
    let again = try main.duet("history", "merge", store)
    #expect(again.stdout.contains("0 new run(s), 0 step(s)"))
    #expect(try main.duet("history").stdout.contains("2 most recent run(s)"))
    let bogus = try main.duet("history", "merge", "/nonexistent/store.sqlite")
    #expect(bogus.status == 1)
  }

  /// `--failed` reruns what failed last time; `duet logs` prints a lane's last log.
  @Test func failedAndLogs() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: good, sh: 'echo good >> ran.log'}
        - {name: bad, sh: 'echo bad >> ran.log; echo "bad: error: it broke"; test -f fixed'}
      """)
    #expect(try tree.duet("verify").status == 1)
    let logs = try tree.duet("logs", "bad")
    #expect(logs.status == 0)
    #expect(logs.stdout == "bad: error: it broke\n")
    try tree.write("fixed", "")
    let rerun = try tree.duet("verify", "--failed")
    #expect(rerun.status == 0)
    #expect(try tree.read("ran.log").split(separator: "\n").sorted() == ["bad", "bad", "good"])
    let nothing = try tree.duet("verify", "--failed")
    #expect(nothing.stdout.contains("every lane passed when it last ran; nothing to run"))
    #expect(try tree.duet("logs", "nope").status == 2)
  }

  /// `history prune` keeps the newest runs and removes the log folders of the others;
  /// verify on its own keeps the log folders of the last 50 runs.
  @Test func pruneAndLogRetention() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: 'echo hi'}\n")
    for _ in 0..<53 { #expect(try tree.duet("verify").status == 0) }
    let logs = tree.url.appendingPathComponent(".duet/logs")
    #expect(try FileManager.default.contentsOfDirectory(atPath: logs.path).count == 50)
    let pruned = try tree.duet("history", "prune", "--keep", "10")
    #expect(pruned.status == 0)
    #expect(pruned.stdout.hasPrefix("duet history prune: dropped 43 run(s) and 40 log folder(s); kept the newest 10"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: logs.path).count == 10)
    #expect(try tree.duet("history", "--limit", "100").stdout.contains("10 most recent run(s)"))
  }

  /// `--since` narrows the flaky window; evidence older than the window is not counted.
  @Test func flakySince() throws {
    let tree = try FixtureTree(manifest: wobblyManifest)
    try tree.write("src/a.txt", "one")
    _ = try tree.duet("verify")
    _ = try tree.duet("verify")
    #expect(try tree.duet("flaky", "--since", "1h").stdout.contains("wobbly"))
    // A sleep that is the point: the runs must be over a second old for `--since 1s` to leave them out.
    Thread.sleep(forTimeInterval: 1.1)
    let narrow = try tree.duet("flaky", "--since", "1s")
    #expect(narrow.stdout.contains("0 run(s) in the window"))
    #expect(narrow.stdout.contains("no flaky lanes"))
  }
}

final class ResultBox: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var all: [DuetRun?] = []
  func add(_ run: DuetRun?) {
    lock.lock()
    all.append(run)
    lock.unlock()
  }
}
