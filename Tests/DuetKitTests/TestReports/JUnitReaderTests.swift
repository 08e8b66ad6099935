import Foundation
import Testing
@testable import DuetTestReports

/// The JUnit fixtures, `Tests/Fixtures/junit`, written by real runners (see its README).
enum JUnitFixtures {
  static var folder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/junit")
  }

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
  }
}

@Suite("JUnit reports")
struct JUnitReaderTests {
  func parse(_ text: String, limit: Int = 1000) -> (cases: [TestCaseResult], warning: String?) {
    JUnitReader.read(Array(text.utf8), limit: limit)
  }

  /// Gradle's layout, with its exact element and attribute set: every case with
  /// its class, outcome, time and the first line of its message; the CDATA of
  /// `<system-out>` (a `]]>` split in two) is no case and no warning.
  @Test func gradleLayout() throws {
    let read = JUnitReader.read(try JUnitFixtures.bytes("TEST-com.example.theming.ContrastTest.xml"), limit: 1000)
    #expect(read.warning == nil)
    let suite = "com.example.theming.ContrastTest"
    #expect(read.cases == [
      TestCaseResult(suite: suite, name: "cardTextMeetsAA", outcome: .pass, duration: 0.021),
      TestCaseResult(suite: suite, name: "darkThemeMeetsAA()", outcome: .pass, duration: 0.017),
      TestCaseResult(suite: suite, name: "borderAlphaIsComposited", outcome: .fail, duration: 0.094,
                     message: "org.opentest4j.AssertionFailedError: expected: <4.5> but was: <3.98>"),
      TestCaseResult(suite: suite, name: "loadsTokenFile", outcome: .error, duration: 0.052,
                     message: "java.io.FileNotFoundException: parity/design-tokens.yaml"),
      TestCaseResult(suite: suite, name: "highContrastTheme", outcome: .skipped, duration: 0),
    ])
  }

  /// pytest's `--junitxml`, made by pytest itself: the `<testsuites>` wrapper, a
  /// failure whose message holds `&#10;` (only its first line is kept), an error
  /// in a fixture, `<skipped message>`, and a name holding markup, decoded.
  @Test func pytestReport() throws {
    let read = JUnitReader.read(try JUnitFixtures.bytes("pytest.xml"), limit: 1000)
    #expect(read.warning == nil)
    #expect(read.cases.map(\.suite) == Array(repeating: "test_sample", count: 5))
    #expect(read.cases.map(\.name) == ["test_adds", "test_fails", "test_errors", "test_skipped", "test_markup[<b>bold</b> & \"quoted\"]"])
    #expect(read.cases.map(\.outcome) == [.pass, .fail, .error, .skipped, .pass])
    #expect(read.cases.map(\.message) == [nil, "AssertionError: arithmetic is broken", "failed on setup with \"RuntimeError: fixture exploded\"",
                                          "not on this platform", nil])
  }

  /// `swift test --parallel --xunit-output`, made by swift test on a small
  /// package: XCTest's cases (SwiftPM writes the skipped one as a pass), and
  /// Swift Testing's empty suite, which is no case and no warning.
  @Test func swiftTestReport() throws {
    let read = JUnitReader.read(try JUnitFixtures.bytes("swift-xunit.xml"), limit: 1000)
    #expect(read.warning == nil)
    #expect(read.cases.map(\.name) == ["testAdds", "testFails", "testSkipped"])
    #expect(read.cases.map(\.outcome) == [.pass, .fail, .pass])
    #expect(read.cases.map(\.suite) == Array(repeating: "SampleTests.SampleTests", count: 3))
    #expect(read.cases[1].message == "failure")
    #expect(read.cases[0].duration == 0.01208995)
    let empty = JUnitReader.read(try JUnitFixtures.bytes("swift-xunit-swift-testing.xml"), limit: 1000)
    #expect(empty.cases.isEmpty && empty.warning == nil)
  }

  /// JUnit 5's console launcher (Platform 1.9.1, Debian's `junit5`), made by
  /// the launcher itself: one suite for the engine, its JVM properties no
  /// case; a failure whose message held markup, an `<error>`, a `@Disabled`
  /// reason in `<skipped>`'s CDATA, and a parameterized test's invocations.
  @Test func junit5ConsoleLauncherReport() throws {
    let read = JUnitReader.read(try JUnitFixtures.bytes("TEST-junit-jupiter.xml"), limit: 1000)
    #expect(read.warning == nil)
    #expect(read.cases.map(\.suite) == Array(repeating: "com.example.chat.ChatTest", count: 6))
    #expect(read.cases.map(\.name) == ["receivesReply()", "throwsOutsideAnAssertion()", "sendsMessage()", "reconnects()", "trims(String)[2]", "trims(String)[1]"])
    #expect(read.cases.map(\.outcome) == [.fail, .error, .pass, .skipped, .pass, .pass])
    #expect(read.cases.map(\.message) == ["reply <text> & \"quotes\" ==> expected: <hello> but was: <goodbye>", "socket closed", nil, "server not ready", nil, nil])
    #expect(read.cases.map(\.duration) == [0.105, 0, 0.036, 0, 0, 0.094])
  }

  /// A case without `classname` takes its suite's name; a message-less failure
  /// gives the first non-blank line of its text; a skip never hides a failure.
  @Test func suiteNamesAndMessagesFromText() {
    let read = parse("""
      <testsuites><testsuite name="Outer"><testcase name="a" time="1.5">
      <skipped/><failure>

        first line\n second</failure></testcase></testsuite></testsuites>
      """)
    #expect(read.warning == nil)
    #expect(read.cases == [TestCaseResult(suite: "Outer", name: "a", outcome: .fail, duration: 1.5, message: "first line")])
  }

  /// No DTD is read and no entity expanded: a billion laughs or an external
  /// entity (XXE) stops the reading at the declaration, with one warning naming
  /// the line; an undeclared `&name;` stays as written.
  @Test func documentTypeDeclarationsAreRefused() {
    let laughs = """
      <?xml version="1.0"?>
      <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
      <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
      <testsuite name="s"><testcase name="&lol3;"/></testsuite>
      """
    let read = parse(laughs)
    #expect(read.cases == [])
    #expect(read.warning == "line 2: it holds a document type declaration (<!DOCTYPE or <!ENTITY); duet reads no DTD and expands no entity, so it read no further")
    let xxe = parse("<testsuite name=\"s\"><testcase name=\"ok\"/><!ENTITY xxe SYSTEM \"file:///etc/passwd\"><testcase name=\"&xxe;\"/></testsuite>")
    #expect(xxe.cases.map(\.name) == ["ok"])
    #expect(xxe.warning?.hasPrefix("line 1: it holds a document type declaration") == true)
    #expect(parse("<testsuite><testcase name=\"&xxe; &amp;&#x41;&#0;\"/></testsuite>").cases.map(\.name) == ["&xxe; &A\u{FFFD}"])
  }

  /// A truncated report keeps the cases closed before the cut, with one warning;
  /// so does malformed markup, at any byte: no cut makes the reader trap.
  @Test func truncatedAndMalformedReportsKeepWhatCameBefore() throws {
    let whole = try JUnitFixtures.bytes("TEST-com.example.theming.ContrastTest.xml")
    let cut = JUnitReader.read(Array(whole.prefix(600)), limit: 1000)
    #expect(cut.cases.map(\.name) == ["cardTextMeetsAA", "darkThemeMeetsAA()"])
    #expect(cut.warning?.contains("a truncated report?") == true)
    for length in 0..<whole.count {
      let part = JUnitReader.read(Array(whole.prefix(length)), limit: 1000)
      #expect(part.cases.count <= 5)
      #expect(part.warning != nil || length >= whole.count - 1, "cut at \(length)")
    }
    let bad = parse("<testsuite><testcase name=\"a\"/><testcase name=\"b<c\"/><testcase name=\"d\"/></testsuite>")
    #expect(bad.cases.map(\.name) == ["a"])
    #expect(bad.warning == "line 1: malformed markup; duet read the test cases before it")
  }

  /// Bytes that are not UTF-8 are read as U+FFFD with one warning; a report
  /// declared ISO-8859-1 is read byte for byte, with none.
  @Test func encodings() {
    var bytes = Array("<testsuite><testcase name=\"caf".utf8) + [0xE9] + Array("\"/></testsuite>".utf8)
    let utf8 = JUnitReader.read(bytes, limit: 10)
    #expect(utf8.cases.map(\.name) == ["caf\u{FFFD}"])
    #expect(utf8.warning == "it is not valid UTF-8 (nor declared ISO-8859-1); the bytes that are not are read as U+FFFD")
    bytes = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>".utf8) + bytes
    let latin1 = JUnitReader.read(bytes, limit: 10)
    #expect(latin1.cases.map(\.name) == ["café"])
    #expect(latin1.warning == nil)
  }

  /// 100,000 cases: the first `limit` are kept, with one warning saying so.
  @Test func manyCasesStopAtTheLimit() {
    var text = "<testsuites><testsuite name=\"big\">"
    for index in 0..<100_000 { text += "<testcase name=\"t\(index)\" time=\"0.001\"/>" }
    text += "</testsuite></testsuites>"
    let read = parse(text, limit: 50_000)
    #expect(read.cases.count == 50_000)
    #expect(read.cases.last?.name == "t49999")
    #expect(read.warning == "it holds more than 50000 test cases; duet recorded the first 50000")
  }

  /// Times that are no number, negative, not finite or past the bound read as 0
  /// or the bound; names past the field bound are cut with `…`.
  @Test func numbersAndLengthsAreBounded() {
    let long = String(repeating: "n", count: 5000)
    let read = parse("""
      <testsuite><testcase name="a" time="nan"/><testcase name="b" time="-3"/><testcase name="c" time="1e400"/>
      <testcase name="d" time="5e20"/><testcase name="e" time="soon"/><testcase name="\(long)"/></testsuite>
      """)
    #expect(read.cases.map(\.duration) == [0, 0, 0, 1e9, 0, 0])
    #expect(read.cases.last?.name.count == JUnitReader.maxFieldLength + 1)
  }

  /// Issue 50: a message-less failure's first line is found by scanning the
  /// text as it streams (never split whole): after blank and space-only lines,
  /// a CRLF, a `&#10;` in the text, across CDATA sections, in ISO-8859-1; a
  /// first line past the bound is cut with `…`; a body of 8 MiB with its first
  /// line at the end is read.
  @Test func firstLinesAreFoundByScanning() {
    func message(_ body: String, declaration: String = "") -> String? {
      parse("\(declaration)<testsuite><testcase name=\"a\"><failure>\(body)</failure></testcase></testsuite>").cases.first?.message
    }
    #expect(message("\n   \n\t\n  boom \r\nsecond") == "boom")
    #expect(message("\r\n\u{00A0}\u{3000}\r\nreal") == "real")
    #expect(message("first&#10;second") == "first")
    #expect(message("&lt;T&gt; was &amp; &#x41;") == "<T> was & A")
    #expect(message("<![CDATA[\n  ]]>  <![CDATA[ cdata <b> line\nnext]]>") == "cdata <b> line")
    #expect(message("   ") == nil)
    #expect(message(String(repeating: "x", count: 40_000)) == String(repeating: "x", count: JUnitReader.maxFieldLength) + "…")
    #expect(parse("<testsuite><testcase name=\"a\"><failure message=\"&#10;  top&#13;&#10;rest\">body</failure></testcase></testsuite>").cases.first?.message == "top")
    let latin1 = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><testsuite><testcase name=\"a\"><failure>\n caf".utf8) + [0xE9]
      + Array("\n</failure></testcase></testsuite>".utf8)
    #expect(JUnitReader.read(latin1, limit: 10).cases.first?.message == "café")
    let deep = String(repeating: " \n", count: 4 << 20) + "at last"
    #expect(message(deep) == "at last")
  }

  /// Issue 50: validity of UTF-8 is checked in place by Unicode's table, as
  /// Swift's own decoder decides it, on every sequence of up to four bytes
  /// drawn from the boundary values.
  @Test func utf8CheckAgreesWithTheStandardLibrary() {
    let edges: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
                          0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
    var sequences: [[UInt8]] = edges.map { [$0] }
    for _ in 0..<3 { sequences += sequences.filter { $0.count == sequences.last!.count }.flatMap { s in edges.map { s + [$0] } } }
    let disagreements = sequences.filter { UTF8Check.isValid($0) != (String(validating: $0, as: UTF8.self) != nil) }
    #expect(sequences.count > 300_000 && disagreements.isEmpty, "\(disagreements.prefix(5))")
  }

  /// Issue 50: the report streams through a window a chunk at a time; cut
  /// into chunks of any size (a reference, a `]]>`, a tag, a UTF-8 sequence
  /// split between two), every report reads as it does whole: the same cases,
  /// the same warning and line.
  @Test func chunksOfAnySizeReadAlike() throws {
    var reports = try ["TEST-com.example.theming.ContrastTest.xml", "TEST-junit-jupiter.xml", "pytest.xml", "swift-xunit.xml"].map(JUnitFixtures.bytes)
    reports += [
      "<testsuite name=\"s&amp;t\"><testcase name=\"a&#x1F600;\"><failure>\n  &lt;x&gt; &#10;y</failure></testcase>"
        + "<testcase name=\"b\"><error><![CDATA[ ]]]]><![CDATA[>\n]]>second]]></error></testcase><!-- c > d --></testsuite>",
      "<testsuite><testcase name=\"caf\u{E9} \u{1F600}\"/><testcase name=\"b\" attr=\"x>y\"/><testcase name=\"c\">",
      "<testsuite><testcase name=\"a\"/><![CDATA[ never ends",
      "<testsuite><testcase name=\"a\"/><testcase name=\"b<c\"/></testsuite>",
      "<?xml version=\"1.0\"?>\n<!DOCTYPE x>\n<testsuite/>",
    ].map { Array($0.utf8) }
    reports.append(Array("<testsuite><testcase name=\"".utf8) + [0xE2, 0x82] + Array("\"/></testsuite>".utf8))
    reports.append(Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><testsuite><testcase name=\"caf".utf8) + [0xE9] + Array("\"/></testsuite>".utf8))
    for bytes in reports {
      let whole = JUnitReader.read(bytes, limit: 1000)
      for chunk in [1, 2, 3, 5, 7, 64] {
        let split = JUnitReader.read(.memory(bytes, chunk: chunk), limit: 1000, until: ReadingDeadline(end: .max))
        #expect(split.cases == whole.cases && split.warning == whole.warning,
                "chunk \(chunk) of \(String(decoding: bytes.prefix(60), as: UTF8.self)): \(split.warning ?? "-") vs \(whole.warning ?? "-")")
      }
    }
    let limited = JUnitReader.read(.memory(reports[0], chunk: 3), limit: 2, until: ReadingDeadline(end: .max))
    #expect(limited.cases.count == 2 && limited.stop == JUnitReader.read(.memory(reports[0]), limit: 2, until: ReadingDeadline(end: .max)).stop)
  }
}
