import Foundation
import Testing
@testable import DuetTestReports
@testable import DuetSupport

/// Which of a lane's reports an attempt wrote, and the bounds on reading them.
struct TestReportFilesTests {
  let report = "<testsuite name=\"S\"><testcase name=\"a\"/><testcase name=\"b\"/><testcase name=\"c\"/></testsuite>"

  /// A report left as it was since the attempt started is not read, even
  /// when its time falls within the clock's slack of the start (an earlier
  /// attempt wrote it just before); rewritten during the attempt, it is; one
  /// older than the start is never read, snapshot or not; a new one always is.
  @Test func onlyReportsWrittenDuringTheAttemptAreRead() throws {
    let tree = try TemporaryFolder()
    try tree.write("out/earlier.xml", report)
    try tree.write("out/old.xml", report)
    try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                          ofItemAtPath: tree.url.appendingPathComponent("out/old.xml").path)
    let start = Date().timeIntervalSince1970
    let snapshot = TestReportFiles.snapshot(["out/*.xml"], root: tree.url)
    #expect(TestReportFiles.read(["out/*.xml"], root: tree.url, since: start, unchanged: snapshot).cases.isEmpty)
    try tree.write("out/earlier.xml", report.replacingOccurrences(of: "name=\"c\"", with: "name=\"d\""))
    try tree.write("out/new.xml", "<testsuite><testcase classname=\"N\" name=\"n\"/></testsuite>")
    let read = TestReportFiles.read(["out/*.xml", "out/new.xml"], root: tree.url, since: start, unchanged: snapshot)
    #expect(read.cases.map(\.fullName) == ["S.a", "S.b", "S.d", "N.n"])
    #expect(read.warnings.isEmpty)
    #expect(TestReportFiles.read(["out/old.xml"], root: tree.url, since: start).cases.isEmpty)
  }

  /// Issue 50, item 11: a report past the size bound is not read at all, with
  /// one warning naming it, and the reports after it are still read; a folder,
  /// a link and a FIFO are never read as reports.
  @Test func boundsAndKinds() throws {
    let tree = try TemporaryFolder()
    try tree.write("a.xml", report)
    try tree.write("b.xml", "<testsuite><testcase name=\"x\"/></testsuite>")
    let over = TestReportFiles.read(["*.xml"], root: tree.url, since: 0, maxBytes: 64)
    #expect(over.cases.map(\.name) == ["x"])
    #expect(over.warnings == ["a.xml: not read; it is 92 bytes, larger than 64 bytes, the most duet reads of one report"])
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("dir.xml"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: tree.url.appendingPathComponent("link.xml").path, withDestinationPath: "a.xml")
    #expect(mkfifo(tree.url.appendingPathComponent("fifo.xml").path, 0o644) == 0)
    let kinds = TestReportFiles.read(["dir.xml", "link.xml", "fifo.xml"], root: tree.url, since: 0)
    #expect(kinds.cases.isEmpty)
  }

  /// Issue 50, item 11: past the case bound the attempt gets one warning, where
  /// the reading stopped and how many reports it left, not one per report left.
  @Test func pastTheCaseBoundOneWarningPerAttempt() throws {
    let tree = try TemporaryFolder()
    for name in ["a", "b", "c", "d"] { try tree.write("\(name).xml", report) }
    let inside = TestReportFiles.read(["*.xml"], root: tree.url, since: 0, maxCases: 4)
    #expect(inside.cases.map(\.name) == ["a", "b", "c", "a"])
    #expect(inside.warnings == ["b.xml: past 4 test cases, the most duet records for one attempt; duet recorded those up to its line 1 and read no further, nor the 2 reports after it"])
    let between = TestReportFiles.read(["*.xml"], root: tree.url, since: 0, maxCases: 3)
    #expect(between.cases.count == 3)
    #expect(between.warnings == ["b.xml: not read, nor the 2 reports after it; the lane's reports already held 3 test cases, the most duet records for one attempt"])
    #expect(TestReportFiles.read(["*.xml"], root: tree.url, since: 0, maxCases: 12).warnings == [])
  }

  /// Issue 50, item 11: the bytes read for one attempt are bounded: a report
  /// that would pass the bound is not read, nor those after it, with one warning.
  @Test func bytesReadPerAttemptAreBounded() throws {
    let tree = try TemporaryFolder()
    for name in ["a", "b", "c", "d"] { try tree.write("\(name).xml", report) }
    let read = TestReportFiles.read(["*.xml"], root: tree.url, since: 0, maxTotalBytes: 200)
    #expect(read.cases.count == 6)
    #expect(read.warnings == ["c.xml: not read, nor the 1 report after it; with the 184 bytes of reports read before it, it would pass the 200 bytes duet reads for one attempt"])
    #expect(TestReportFiles.maxTotalBytes == 128 << 20)
  }

  /// Issue 50, item 11: reading happens within the lane's timeout. Past the
  /// deadline nothing more is read, with one warning (so the reading counts as
  /// incomplete); a deadline that passes inside a report keeps the cases before.
  @Test func readingStopsAtTheDeadline() throws {
    let tree = try TemporaryFolder()
    for name in ["a", "b", "c"] { try tree.write("\(name).xml", report) }
    let late = TestReportFiles.read(["*.xml"], root: tree.url, since: 0, deadline: Date().timeIntervalSince1970 - 1)
    #expect(late.cases.isEmpty)
    #expect(late.warnings == ["a.xml: not read, nor the 2 reports after it; the lane's timeout ran out before duet read it"])
    #expect(TestReportFiles.read(["*.xml"], root: tree.url, since: 0, deadline: Date().timeIntervalSince1970 + 60).warnings.isEmpty)
    // A clock that moves one tick a look: a.xml is read, the deadline passes as b.xml starts.
    final class Ticks { var now: UInt64 = 0 }
    let ticks = Ticks()
    let deadline = ReadingDeadline(end: 3, now: { defer { ticks.now += 1 }; return ticks.now })
    let inside = TestReportFiles.read(["*.xml"], root: tree.url, since: 0, unchanged: TestReportSnapshot(), until: deadline,
                                      bounds: (TestReportFiles.maxCases, TestReportFiles.maxBytes, TestReportFiles.maxTotalBytes))
    #expect(inside.cases.map(\.name) == ["a", "b", "c"])
    #expect(inside.warnings == ["b.xml: the lane's timeout ran out as duet read it; duet recorded the test cases up to its line 1 and read no further, nor the 1 report after it"])
  }
}
