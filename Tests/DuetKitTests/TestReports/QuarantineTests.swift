import Foundation
import Testing
@testable import DuetTestReports
@testable import DuetSupport

/// `lanes/quarantine.yaml` (issue 40): read with every problem at its line and
/// column, written back in one form, and the rule a run applies to a failed attempt.
struct QuarantineTests {
  let lanes: Set<String> = ["unit", "ui"]

  func parse(_ text: String) throws(QuarantineError) -> QuarantineFile {
    do {
      return try QuarantineFile.parse(YAMLParser.parse(text, file: "lanes/quarantine.yaml"), lanes: lanes)
    } catch let error as QuarantineError {
      throw error
    } catch {
      throw QuarantineError(diagnostics: [Diagnostic("\(error)")])
    }
  }

  func failure(_ text: String) -> String {
    do {
      _ = try parse(text)
      return "no error"
    } catch {
      return error.description
    }
  }

  @Test func readsTestAndLaneEntries() throws {
    let file = try parse("""
      # kept by review
      quarantine:
        - test: "app.CartTest.*"
          lane: unit
          reason: flips on CI (#12)
          until: 2026-12-31
        - lane: ui
          reason: emulator broken
          until: 2027-01-05
      """)
    #expect(file.entries.map(\.test) == ["app.CartTest.*", nil])
    #expect(file.entries.map(\.lane) == ["unit", "ui"])
    #expect(file.entries.map(\.until.description) == ["2026-12-31", "2027-01-05"])
    #expect(file.entries[0].location?.line == 3)
    #expect(try parse(file.text).entries.map(\.reason) == ["flips on CI (#12)", "emulator broken"])
    #expect(try parse("").entries.isEmpty)
    #expect(try parse("quarantine: []").entries.isEmpty)
  }

  /// An unknown lane is named, with the nearest lane; `until` must be a real
  /// day; a missing reason and an unknown key are each reported where they stand.
  @Test func everyProblemHasItsLineAndColumn() {
    let text = failure("""
      quarantine:
        - test: A.b
          lane: unti
          reason: x
          until: 2026-02-30
        - lane: unit
          until: 2026-13-01
          owner: me
      """)
    #expect(text.contains("lanes/quarantine.yaml:3:11: error: quarantine entry 1: unknown lane 'unti'"), "\(text)")
    #expect(text.contains("did you mean 'unit'"), "\(text)")
    #expect(text.contains("lanes/quarantine.yaml:5:12: error: quarantine entry 1: 'until' must be a real date written YYYY-MM-DD, got '2026-02-30'"), "\(text)")
    #expect(text.contains("quarantine entry 2: missing 'reason'"), "\(text)")
    #expect(text.contains("got '2026-13-01'"), "\(text)")
    #expect(text.contains(":8:5: error: quarantine entry 2: unknown key 'owner'"), "\(text)")
    #expect(failure("quarantine: 3").contains("must be a list of entries"))
  }

  @Test func datesAreRealDays() {
    #expect(QuarantineDate("2024-02-29")?.description == "2024-02-29")
    #expect(QuarantineDate("2023-02-29") == nil)
    #expect(QuarantineDate("1900-02-29") == nil)
    #expect(QuarantineDate("2026-1-01") == nil)
    #expect(QuarantineDate("2026-01-01x") == nil)
    #expect(QuarantineDate("+026-01-01") == nil)
    #expect(QuarantineDate("2026-12-05")!.adding(days: 30).description == "2027-01-04")
    #expect(QuarantineDate("2026-12-05")! < QuarantineDate("2027-01-01")!)
  }

  func failed(_ name: String) -> TestCaseResult {
    TestCaseResult(suite: "app.CartTest", name: name, outcome: .fail, duration: 0)
  }

  /// A failed attempt is excused when every failed case matches an entry still
  /// in date; one failure outside the quarantine, or none at all, fails; an
  /// expired entry counts for nothing and is warned about; a lane-level entry excuses any failure.
  @Test func theRuleExcusesOnlyFailuresAllQuarantined() {
    let today = QuarantineDate("2026-12-05")!
    let rule = QuarantineRule(entries: [
      QuarantineEntry(test: "app.CartTest.adds*", lane: "unit", reason: "r", until: today),
      QuarantineEntry(test: "app.CartTest.old", lane: "unit", reason: "r", until: QuarantineDate("2026-12-04")!),
      QuarantineEntry(test: "app.CartTest.other", lane: "ui", reason: "r", until: today),
      QuarantineEntry(test: nil, lane: "ui", reason: "r", until: QuarantineDate("2027-01-01")!),
    ], today: today)
    let passing = TestCaseResult(suite: "app.CartTest", name: "fine", outcome: .pass, duration: 0)
    let excuse = rule.excuse(lane: "unit", cases: [failed("addsItem"), passing, failed("addsTwo")])
    #expect(excuse == .tests(["app.CartTest.addsItem", "app.CartTest.addsTwo"]))
    #expect(excuse?.note == "2 quarantined failures: app.CartTest.addsItem, app.CartTest.addsTwo")
    #expect(rule.excuse(lane: "unit", cases: [failed("addsItem"), failed("other")]) == nil)
    #expect(rule.excuse(lane: "unit", cases: [failed("old")]) == nil)
    #expect(rule.excuse(lane: "unit", cases: [passing]) == nil)
    #expect(rule.excuse(lane: "unit", cases: []) == nil)
    #expect(rule.excuse(lane: "ui", cases: []) == .lane(until: QuarantineDate("2027-01-01")!))
    #expect(QuarantineExcuse.lane(until: QuarantineDate("2027-01-01")!).note == "quarantined until 2027-01-01")
    #expect(rule.warnings == ["quarantine of app.CartTest.old in lane 'unit' expired on 2026-12-04; its failures fail the run again (lanes/quarantine.yaml)"])
  }

  @Test func writtenTextReadsBackTheSame() throws {
    let entries = [
      QuarantineEntry(test: "a: b #c", lane: "unit", reason: "yes", until: QuarantineDate("2026-12-31")!),
      QuarantineEntry(test: nil, lane: "ui", reason: "\"quoted\"\nand more", until: QuarantineDate("2027-01-01")!),
    ]
    let text = QuarantineFile(entries: entries).text
    #expect(text.hasPrefix("# Quarantined tests and lanes"))
    let back = try parse(text).entries.map { var e = $0; e.location = nil; return e }
    #expect(back == entries)
  }

  /// Issue 40: `added:` is read, checked as `until:` is (at its line and
  /// column), written back after `until:`; an entry without it (an older file) reads as before.
  @Test func addedIsOptionalAndARealDay() throws {
    let file = try parse("quarantine:\n  - test: A.b\n    lane: unit\n    reason: r\n    until: 2026-12-31\n    added: 2026-12-01\n  - lane: ui\n    reason: r\n    until: 2026-12-31\n")
    #expect(file.entries.map(\.added) == [QuarantineMoment("2026-12-01"), nil])
    #expect(file.text.contains("    until: 2026-12-31\n    added: 2026-12-01\n  - lane: ui\n    reason: r\n    until: 2026-12-31\n"), "\(file.text)")
    #expect(try parse(file.text).entries.map(\.added) == file.entries.map(\.added))
    #expect(failure("quarantine:\n  - lane: ui\n    reason: r\n    until: 2026-12-31\n    added: 2026-02-30\n")
            .contains("lanes/quarantine.yaml:5:12: error: quarantine entry 1: 'added' must be a real moment written YYYY-MM-DDTHH:MM:SSZ (UTC), or a day YYYY-MM-DD, got '2026-02-30'"))
  }

  /// Issue 50, item 4: `added:` holds the moment, `YYYY-MM-DDTHH:MM:SSZ`, a
  /// real day and time; a plain day from an older file is the start of that
  /// day and is written back as a day; `add` rounds up to the second, so a
  /// run started earlier in the same second is never counted after the entry.
  @Test func addedIsAMomentAndAnOlderDayStillReads() throws {
    let noon = try #require(QuarantineMoment("2026-12-06T12:03:00Z"))
    #expect(noon.description == "2026-12-06T12:03:00Z")
    #expect(noon.start == QuarantineDate("2026-12-06")!.start + 12 * 3600 + 3 * 60)
    let day = try #require(QuarantineMoment("2026-12-06"))
    #expect(day.isDay && day.description == "2026-12-06" && day.start == QuarantineDate("2026-12-06")!.start)
    #expect(day < noon)
    for bad in ["2026-12-06T24:00:00Z", "2026-12-06T12:60:00Z", "2026-02-30T12:00:00Z", "2026-12-06T12:03:00", "2026-12-06 12:03:00Z",
                "2026-12-06T12:03:00+01:00", "2026-12-06t12:03:00z", "2026-12-06T1:03:00Z", "2026-12-06T12:03:0xZ"] {
      #expect(QuarantineMoment(bad) == nil, "\(bad)")
    }
    #expect(QuarantineMoment(Date(timeIntervalSince1970: noon.start + 0.2)).description == "2026-12-06T12:03:01Z")
    #expect(QuarantineMoment(Date(timeIntervalSince1970: noon.start)).description == "2026-12-06T12:03:00Z")
    let file = try parse("quarantine:\n  - test: A.b\n    lane: unit\n    reason: r\n    until: 2026-12-31\n    added: 2026-12-06T12:03:00Z\n"
                         + "  - test: A.c\n    lane: unit\n    reason: r\n    until: 2026-12-31\n    added: 2026-12-01\n")
    #expect(file.entries.map(\.added) == [noon, QuarantineMoment("2026-12-01")])
    #expect(file.text.contains("    added: 2026-12-06T12:03:00Z\n") && file.text.contains("    added: 2026-12-01\n"), "\(file.text)")
    #expect(try parse(file.text).entries.map(\.added) == file.entries.map(\.added))
  }

  /// Issue 50, item 10: `exact: true` reads `test` as one name, `*` and `?`
  /// literal; it is written back, is kept only on a name holding a glob
  /// character, must be true or false, and needs a test.
  @Test func exactTakesTheNameLiterally() throws {
    let file = try parse("quarantine:\n  - test: \"app.T.sums[a*b]\"\n    exact: true\n    lane: unit\n    reason: r\n    until: 2026-12-31\n"
                         + "  - test: app.T.plain\n    exact: true\n    lane: unit\n    reason: r\n    until: 2026-12-31\n")
    #expect(file.entries.map(\.exact) == [true, false])
    #expect(file.entries[0].matches(test: "app.T.sums[a*b]") && !file.entries[0].matches(test: "app.T.sums[aXb]"))
    #expect(QuarantineEntry(test: "app.T.sums[a*b]", lane: "unit", reason: "r", until: QuarantineDate("2026-12-31")!).matches(test: "app.T.sums[aXb]"))
    #expect(file.text.contains("  - test: \"app.T.sums[a*b]\"\n    exact: true\n    lane: unit\n"), "\(file.text)")
    #expect(!file.text.contains("  - test: app.T.plain\n    exact"), "\(file.text)")
    #expect(try parse(file.text).entries.map { var e = $0; e.location = nil; return e } == file.entries.map { var e = $0; e.location = nil; return e })
    #expect(failure("quarantine:\n  - test: a*\n    exact: yes please\n    lane: unit\n    reason: r\n    until: 2026-12-31\n")
            .contains("lanes/quarantine.yaml:3:12: error: quarantine entry 1: 'exact' must be true or false, got 'yes please'"))
    #expect(failure("quarantine:\n  - exact: true\n    lane: unit\n    reason: r\n    until: 2026-12-31\n")
            .contains("lanes/quarantine.yaml:2:12: error: quarantine entry 1: 'exact' needs a 'test'"))
  }

  /// Issue 50, item 10: a glob made only of `*`, `?` and `.` names no test
  /// and takes every test of its lane; one naming a class does not, nor does an exact name.
  @Test func aPatternOfGlobsAloneMatchesEveryTest() {
    func entry(_ test: String, exact: Bool = false) -> QuarantineEntry {
      QuarantineEntry(test: test, exact: exact, lane: "unit", reason: "r", until: QuarantineDate("2026-12-31")!)
    }
    #expect(["*", "*.*", "?*", "**", "*.?*"].allSatisfy { entry($0).matchesEveryTest })
    #expect(!["app.*", "?", "...", "*a", "a*"].contains { entry($0).matchesEveryTest })
    #expect(!entry("*", exact: true).matchesEveryTest)
  }

  /// Issue 50, item 5: the text `add`, `remove` and `suggest` would write is
  /// read back first; text duet could not read (an empty test, an unknown
  /// lane) is refused with the reader's own error, and nothing is written.
  @Test func theWrittenTextMustReadBack() throws {
    let good = QuarantineFile(entries: [QuarantineEntry(test: "a\n*", exact: true, lane: "unit", reason: "r\u{1B}", until: QuarantineDate("2026-12-31")!,
                                                        added: QuarantineMoment("2026-12-06T12:03:00Z"))])
    #expect(try good.checkedText(lanes: lanes) == good.text)
    let empty = QuarantineFile(entries: [QuarantineEntry(test: " ", lane: "unit", reason: "r", until: QuarantineDate("2026-12-31")!)])
    #expect(throws: QuarantineError.self) { try empty.checkedText(lanes: lanes) }
    let unknown = QuarantineFile(entries: [QuarantineEntry(test: "a", lane: "gone", reason: "r", until: QuarantineDate("2026-12-31")!)])
    do {
      _ = try unknown.checkedText(lanes: lanes)
      Issue.record("an entry of an unknown lane was written")
    } catch {
      #expect(error.description.contains("unknown lane 'gone'"), "\(error)")
    }
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("duet-quarantine-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(at: root.appendingPathComponent("lanes"), withIntermediateDirectories: true)
    #expect(throws: QuarantineError.self) { try empty.write(root: root, lanes: lanes) }
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(QuarantineFile.defaultPath).path))
  }
}
