import Foundation
import Testing

@Suite("The quarantine (lanes/quarantine.yaml), end to end")
struct QuarantineCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: unit
        reports: [out.xml]
        sh: |
          printf '<testsuite><testcase classname="app.CartTest" name="addsItem"><failure message="boom"/></testcase><testcase classname="app.CartTest" name="flips"><failure message="x"/></testcase><testcase classname="app.CartTest" name="ok"/></testsuite>' > out.xml
          exit 1
      - name: ui
        sh: exit 1
      - name: after
        needs: [unit]
        sh: echo ok
    """

  /// Issue 40: the built `duet verify` passes a lane whose failed cases are all
  /// quarantined (a glob) and a lane quarantined whole, each with its note; the
  /// failures are still recorded; an entry past its day warns once, by name;
  /// without the file, the same tree fails.
  @Test func quarantinedFailuresPassWithANoteAndStayRecorded() throws {
    let tree = try FixtureTree(manifest: QuarantineCLITests.manifest)
    #expect(try tree.duet("verify").status == 1)
    try tree.write("lanes/quarantine.yaml", """
      quarantine:
        - test: app.CartTest.*
          lane: unit
          reason: flips on CI
          until: 2099-12-31
        - lane: ui
          reason: emulator
          until: 2099-01-01
        - test: app.Old.test
          lane: unit
          reason: old
          until: 2020-01-01
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("\nunit   pass     "), "\(run.stdout)")
    #expect(run.stdout.contains("2 quarantined failures: app.CartTest.addsItem, app.CartTest.flips\n"), "\(run.stdout)")
    #expect(run.stdout.contains("quarantined until 2099-01-01\n"), "\(run.stdout)")
    #expect(run.stdout.contains("\nafter  pass"), "\(run.stdout)")
    let warnings = run.stderr.components(separatedBy: "\n").filter { $0.contains("expired") }
    #expect(warnings == ["duet verify: warning: quarantine of app.Old.test in lane 'unit' expired on 2020-01-01; its failures fail the run again (lanes/quarantine.yaml)"])
    let stats = try tree.duet("stats", "--tests")
    #expect(stats.stdout.contains("0%         0.00s  0.00s  0.00s  app.CartTest.flips"), "\(stats.stdout)")
  }

  /// Review of issue 40: a pass the quarantine excused is never served later.
  /// With the quarantine gone and the inputs unchanged, the lane runs again
  /// and fails; it was served as cached ("inputs unchanged since it last passed").
  @Test func anExcusedPassIsNeverServedLater() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          reports: [out.xml]
          inputs: ["src/**"]
          sh: |
            printf '<testsuite><testcase classname="app.CartTest" name="addsItem"><failure message="boom"/></testcase></testsuite>' > out.xml
            exit 1
      """)
    try tree.write("src/a.kt", "fun a() = 1\n")
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - test: app.CartTest.addsItem\n    lane: unit\n    reason: flips\n    until: 2099-12-31\n")
    let excused = try tree.duet("verify")
    #expect(excused.status == 0, "\(excused.stdout)\(excused.stderr)")
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("lanes/quarantine.yaml"))
    let again = try tree.duet("verify")
    #expect(again.status == 1, "served the excused pass: \(again.stdout)")
    #expect(!again.stdout.contains("cached"), "\(again.stdout)")
  }

  /// Review of issue 40: quarantined tests excuse only a failure they account
  /// for. A report cut short (its last, failing case unread) is no excuse.
  @Test func aReportCutShortExcusesNothing() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          reports: [out.xml]
          sh: |
            printf '<testsuite><testcase classname="app.CartTest" name="addsItem"><failure message="boom"/></testcase><testcase classname="app.Other" name="t"><failure mess' > out.xml
            exit 1
      """)
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - test: app.CartTest.addsItem\n    lane: unit\n    reason: flips\n    until: 2099-12-31\n")
    let run = try tree.duet("verify")
    #expect(run.status == 1, "a truncated report excused the lane: \(run.stdout)")
  }

  /// An expired test entry counts for nothing: the lane fails again; a file
  /// that cannot be read quarantines nothing and names each problem's place.
  @Test func expiredAndBrokenQuarantinesBlock() throws {
    let tree = try FixtureTree(manifest: QuarantineCLITests.manifest.replacingOccurrences(of: "sh: exit 1", with: "sh: exit 0"))
    try tree.write("lanes/quarantine.yaml", """
      quarantine:
        - test: app.CartTest.*
          lane: unit
          reason: flips on CI
          until: 2020-01-01
      """)
    let expired = try tree.duet("verify")
    #expect(expired.status == 1)
    #expect(expired.stderr.contains("quarantine of app.CartTest.* in lane 'unit' expired on 2020-01-01"), "\(expired.stderr)")
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - lane: nope\n    reason: x\n    until: 2026-02-30\n")
    let broken = try tree.duet("verify")
    #expect(broken.status == 1)
    #expect(broken.stderr.contains("lanes/quarantine.yaml:2:11: error: quarantine entry 1: unknown lane 'nope'"), "\(broken.stderr)")
    #expect(broken.stderr.contains("lanes/quarantine.yaml:4:12: error: quarantine entry 1: 'until' must be a real date"), "\(broken.stderr)")
  }

  /// `duet quarantine add` writes the entry (30 days from today unless
  /// `--until`), keeps the others, updates one written twice; `list` and
  /// `--json` show them; `remove` takes one away; an unknown lane, a day that
  /// is not a date and an entry not there are refused with their exit codes;
  /// the file it writes quarantines in `verify`.
  @Test func addListRemove() throws {
    let tree = try FixtureTree(manifest: QuarantineCLITests.manifest)
    let added = try tree.duet("quarantine", "add", "app.CartTest.*", "--lane", "unit", "--reason", "flips on CI, #12")
    #expect(added.status == 0, "\(added.stderr)")
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
    let day = try #require(calendar.date(byAdding: .day, value: 30, to: Date()))
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    #expect(added.stdout == "duet quarantine: added app.CartTest.* in lane 'unit' until \(formatter.string(from: day)) in lanes/quarantine.yaml: flips on CI, #12\n")
    #expect(try tree.duet("quarantine", "add", "--lane", "ui", "--reason", "old", "--until", "2027-01-15").status == 0)
    let again = try tree.duet("quarantine", "add", "--lane", "ui", "--reason", "emulator", "--until", "2099-01-15")
    #expect(again.stdout.hasPrefix("duet quarantine: updated lane 'ui' until 2099-01-15"))
    let file = try String(contentsOf: tree.url.appendingPathComponent("lanes/quarantine.yaml"), encoding: .utf8)
    #expect(file.hasPrefix("# Quarantined tests and lanes"))
    #expect(file.contains("  - test: app.CartTest.*\n    lane: unit\n    reason: \"flips on CI, #12\"\n"), "\(file)")
    #expect(file.contains("  - lane: ui\n    reason: emulator\n    until: 2099-01-15\n"), "\(file)")
    #expect(try tree.duet("verify").status == 0)
    let list = try tree.duet("quarantine", "list")
    #expect(list.lines[0] == "duet quarantine: 2 entries in lanes/quarantine.yaml")
    #expect(list.lines[3].hasPrefix("  ui    (whole lane)    2099-01-15  active  emulator"), "\(list.stdout)")
    let json = try tree.duet("quarantine", "list", "--json")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let entries = try #require(object["entries"] as? [[String: Any]])
    #expect(entries.map { $0["lane"] as? String } == ["unit", "ui"])
    #expect(entries[1]["test"] is NSNull)

    let unknown = try tree.duet("quarantine", "add", "x", "--lane", "unti", "--reason", "r")
    #expect(unknown.status == 2 && unknown.stderr.contains("unknown lane 'unti'"))
    let badDay = try tree.duet("quarantine", "add", "x", "--lane", "unit", "--reason", "r", "--until", "2026-02-30")
    #expect(badDay.status == 2 && badDay.stderr.contains("got '2026-02-30'"))
    #expect(try tree.duet("quarantine", "remove", "app.CartTest.*", "--lane", "unit").status == 0)
    let missing = try tree.duet("quarantine", "remove", "app.CartTest.*", "--lane", "unit")
    #expect(missing.status == 1 && missing.stderr.contains("has no entry for app.CartTest.* in lane 'unit'"))
    #expect(try tree.duet("verify").status == 1)
  }

  /// `duet quarantine suggest` on the built binary: before any run it says
  /// there is no history; after ten runs in which `app.T.flips` fails its first
  /// attempt and passes the retry, it suggests quarantining it (with the
  /// command), and releasing the entry of `app.T.steady`, which passed all ten.
  @Test func suggestQuarantinesTheFlakyAndReleasesTheSteady() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          retries: 1
          reports: [out.xml]
          sh: |
            if [ "$DUET_ATTEMPT" = 1 ]; then r='<failure message="x"/>'; else r=''; fi
            printf '<testsuite><testcase classname="app.T" name="flips">%s</testcase><testcase classname="app.T" name="steady"/></testsuite>' "$r" > out.xml
            test "$DUET_ATTEMPT" != 1
      """)
    #expect(try tree.duet("quarantine", "suggest").stdout.contains("no runs recorded yet"))
    #expect(try tree.duet("quarantine", "add", "app.T.steady", "--lane", "unit", "--reason", "was flaky").status == 0)
    for run in 1...9 { #expect(try tree.duet("verify").status == 0, "run \(run)") }
    let early = try tree.duet("quarantine", "suggest")
    #expect(early.lines[0] == "duet quarantine suggest: 1 flaky test(s) not quarantined; 0 quarantine(s) whose tests passed their last 10 runs or more in a row")
    #expect(try tree.duet("verify").status == 0)
    let found = try tree.duet("quarantine", "suggest")
    #expect(found.status == 0)
    #expect(found.lines == [
      "duet quarantine suggest: 1 flaky test(s) not quarantined; 1 quarantine(s) whose tests passed their last 10 runs or more in a row",
      "  quarantine app.T.flips (lane unit): 10 failure(s) in 10 run(s)",
      "    duet quarantine add app.T.flips --lane unit --reason '...'",
      "  release app.T.steady in lane 'unit': 10 passing run(s) in a row since it was added on \(Self.today())",
      "",
    ], "\(found.stdout)")
  }

  /// Today in UTC, as `quarantine add` writes `added:`.
  static func today() -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd"
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.locale = Locale(identifier: "en_US_POSIX")
    return formatter.string(from: Date())
  }

  /// Issue 40: `quarantine add` writes `added:` (today) beside `until:`, and
  /// `suggest` counts an entry's passes only from that day: ten passing runs
  /// before an entry's `added` day (here one still to come) release nothing,
  /// while an entry of an older file, with no `added:`, is counted over the
  /// newest runs as before, and says so.
  @Test func suggestCountsOnlyTheRunsSinceAnEntryWasAdded() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: unit
          reports: [out.xml]
          sh: printf '<testsuite><testcase classname="app.T" name="steady"/><testcase classname="app.U" name="steady"/></testsuite>' > out.xml
      """)
    #expect(try tree.duet("quarantine", "add", "app.T.steady", "--lane", "unit", "--reason", "was flaky").status == 0)
    let written = try tree.read("lanes/quarantine.yaml")
    #expect(written.contains("    until: ") && written.contains("\n    added: \(Self.today())\n"), "\(written)")
    try tree.write("lanes/quarantine.yaml", """
      quarantine:
        - test: app.T.steady
          lane: unit
          reason: added later
          until: 2099-12-31
          added: 2099-01-01
        - test: app.U.steady
          lane: unit
          reason: older file
          until: 2099-12-31
      """)
    for run in 1...10 { #expect(try tree.duet("verify").status == 0, "run \(run)") }
    let found = try tree.duet("quarantine", "suggest")
    #expect(found.status == 0, "\(found.stderr)")
    #expect(found.lines == [
      "duet quarantine suggest: 0 flaky test(s) not quarantined; 1 quarantine(s) whose tests passed their last 10 runs or more in a row",
      "  release app.U.steady in lane 'unit': 10 passing run(s) in a row (the entry has no 'added:' day: counted over the newest runs)",
      "",
    ], "\(found.stdout)")
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - test: x\n    lane: unit\n    reason: r\n    until: 2099-12-31\n    added: 2026-13-01\n")
    let bad = try tree.duet("quarantine", "list")
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("lanes/quarantine.yaml:6:12: error: quarantine entry 1: 'added' must be a real date written YYYY-MM-DD, got '2026-13-01'"), "\(bad.stderr)")
  }
}
