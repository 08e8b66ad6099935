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

  /// A report past the size bound is read that far, with one warning; cases
  /// past the attempt's bound are not recorded, and the reports after it are
  /// named as not read; a folder, a link and a FIFO are never read as reports.
  @Test func boundsAndKinds() throws {
    let tree = try TemporaryFolder()
    try tree.write("a.xml", report)
    try tree.write("b.xml", report)
    let cut = TestReportFiles.read(["a.xml"], root: tree.url, since: 0, maxBytes: 64)
    #expect(cut.cases.map(\.name) == ["a", "b"])
    #expect(cut.warnings == ["a.xml: it is larger than 64 bytes; duet read the test cases in its first 64 bytes"])
    let capped = TestReportFiles.read(["*.xml"], root: tree.url, since: 0, maxCases: 3)
    #expect(capped.cases.count == 3)
    #expect(capped.warnings == ["b.xml: not read; the lane's reports already held 3 test cases, the most duet records for one attempt"])
    let two = TestReportFiles.read(["*.xml"], root: tree.url, since: 0, maxCases: 2)
    #expect(two.warnings == ["a.xml: it holds more than 2 test cases; duet recorded the first 2",
                             "b.xml: not read; the lane's reports already held 2 test cases, the most duet records for one attempt"])
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent("dir.xml"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: tree.url.appendingPathComponent("link.xml").path, withDestinationPath: "a.xml")
    #expect(mkfifo(tree.url.appendingPathComponent("fifo.xml").path, 0o644) == 0)
    let kinds = TestReportFiles.read(["dir.xml", "link.xml", "fifo.xml"], root: tree.url, since: 0)
    #expect(kinds.cases.isEmpty)
  }
}
