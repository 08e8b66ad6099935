import Foundation
import Testing

/// Issue 39, item 8: numbers from a store are checked where they enter. A
/// merged store with a step of 1e300 s, Inf or -100 s is refused by name;
/// and a store holding them anyway (edited by hand) leaves every reader total.
@Suite("Stored numbers are checked at the border")
struct StoredNumbersCLITests {
  /// Sets every step's duration (and one run's start) in the store at `path` with Python's sqlite3.
  func poison(_ path: String, duration: String) throws {
    let script = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE steps SET duration = \(duration)'); c.execute('UPDATE runs SET started = \(duration) WHERE rowid = 1'); c.commit()"
    let run = try shell("python3 -c \"\(script)\" '\(path)'", in: URL(fileURLWithPath: "/"))
    #expect(run.status == 0, "\(run.output)")
  }

  func tree() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: a, sh: "true"}
        - {name: b, sh: "true", needs: [a]}
        - {name: c, sh: "true"}
      """)
    #expect(try tree.duet("verify").status == 0)
    #expect(try tree.duet("verify").status == 0)
    return tree
  }

  /// `history merge` refuses a store whose numbers are out of range, naming
  /// the value, and imports nothing from it.
  @Test(arguments: ["1e300", "9e999", "-100"])
  func mergeRefusesOutOfRangeNumbers(value: String) throws {
    let source = try tree()
    let store = source.url.appendingPathComponent(".duet/history.sqlite").path
    try poison(store, duration: value)
    let target = try tree()
    let merged = try target.duet("history", "merge", store)
    #expect(merged.status == 1, "\(value): \(merged.stdout)\(merged.stderr)")
    #expect(merged.stderr.contains("out of range"), "\(value): \(merged.stderr)")
    #expect(try target.duet("history", "--json").stdout.components(separatedBy: "\"id\"").count == 3)
  }

  /// A store holding such numbers (edited in place): stats, report, its page,
  /// trace and a sharded verify end normally, never with a trap.
  @Test(arguments: ["1e300", "9e999", "-100"])
  func readersAreTotal(value: String) throws {
    let tree = try tree()
    try poison(tree.url.appendingPathComponent(".duet/history.sqlite").path, duration: value)
    for command in [["stats"], ["stats", "--json"], ["report"], ["report", "--html", "page.html"], ["trace"], ["flaky"], ["history"],
                    ["verify", "--shard", "1/2"], ["verify", "--dry-run"]] {
      let run = try runBinary(command, in: tree.url)
      #expect(run.status == 0, "\(value) \(command): \(run.status) \(run.stdout.suffix(300))\(run.stderr.suffix(600))")
    }
  }
}

/// Issue 39, item 17: a page asked for is made, or the command says why not.
@Suite("report --html without history")
struct ReportWithoutHistoryCLITests {
  /// With no history, `report --html FILE` exits 1 and says no page was
  /// written, instead of exiting 0 with nothing there.
  @Test func noPageIsSaid() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    let run = try tree.duet("report", "--html", "page.html")
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("no page written to"), "\(run.stderr)")
    #expect(!tree.exists("page.html"))
    #expect(try tree.duet("report").status == 0)
  }
}
