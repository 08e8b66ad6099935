import Foundation

/// Reads the test cases of one JUnit XML report: Gradle's layout (one
/// `<testsuite>` per class, `<properties/>`, `<system-out>` in CDATA), the
/// `<testsuites>` wrapper of pytest, `swift test --xunit-output` and JUnit 5's
/// legacy XML, `<failure>`, `<error>` and `<skipped>`.
///
/// A report is an untrusted file, so this is a small tolerant reader of its own,
/// not an XML library: it never reads a DTD and expands no entity but XML's five
/// and character references. A document type declaration (`<!DOCTYPE`,
/// `<!ENTITY`) stops the reading, so neither an external entity (XXE) nor a
/// billion laughs can reach anything. Whatever is malformed, truncated or past
/// a bound ends the reading there: the cases closed before it are kept, with
/// one warning that says where and why. Nothing here traps.
package enum JUnitReader {
  /// The most characters kept of a name or a message line; the rest is cut, with `…`.
  package static let maxFieldLength = 1000

  /// The cases of `bytes`, at most `limit` of them; `warning` says why the
  /// reading stopped early or what it could not take as it is.
  package static func read(_ bytes: [UInt8], limit: Int) -> (cases: [TestCaseResult], warning: String?) {
    var parser = JUnitParser(bytes: bytes, limit: limit)
    parser.run()
    return (parser.cases, parser.warning)
  }
}

/// The reading of one report, byte by byte.
struct JUnitParser {
  let bytes: [UInt8]
  let limit: Int
  var at = 0
  var cases: [TestCaseResult] = []
  var warning: String?
  /// The names of the open `<testsuite>` elements, innermost last.
  var suites: [String] = []
  /// The `<testcase>` being read, until its end tag.
  var open: TestCaseResult?
  /// Text of an open `<failure>`, `<error>` or `<skipped>` without a `message`, for its first line.
  var collecting: [UInt8]?
  /// Elements open, to tell a complete report from a truncated one.
  var depth = 0
  /// The declaration says ISO-8859-1: each byte is one character.
  var latin1 = false
  var sawRoot = false

  init(bytes: [UInt8], limit: Int) {
    self.bytes = bytes
    self.limit = limit
  }

  /// Keeps the first warning only: the one that explains the rest.
  mutating func warn(_ text: String) {
    if warning == nil { warning = text }
  }

  /// The 1-based line of byte `offset`, for a warning.
  func line(of offset: Int) -> Int {
    var line = 1
    for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A { line += 1 }
    return line
  }

  mutating func run() {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
      warn("it is UTF-16, which duet does not read; write the report in UTF-8")
      return
    }
    while at < bytes.count {
      if bytes[at] == UInt8(ascii: "<") {
        guard markup() else { return }
      } else {
        let start = at
        while at < bytes.count && bytes[at] != UInt8(ascii: "<") { at += 1 }
        if collecting != nil { collecting! += XMLText.decode(bytes[start..<at]) }
      }
    }
    if depth > 0 || !sawRoot {
      let inside = open.map { " inside test case '\(JUnitParser.clip($0.name))'" } ?? ""
      warn(sawRoot ? "it ends\(inside) before its elements close (a truncated report?)" : "it holds no XML element")
    }
    if !latin1 && String(validating: bytes, as: UTF8.self) == nil {
      warn("it is not valid UTF-8 (nor declared ISO-8859-1); the bytes that are not are read as U+FFFD")
    }
  }

  /// One piece of markup at `<`; false when the reading stops here.
  mutating func markup() -> Bool {
    let start = at
    if matches("<?") { return skip(past: "?>", what: "a processing instruction", from: start, declaration: true) }
    if matches("<!--") { return skip(past: "-->", what: "a comment", from: start) }
    if matches("<![CDATA[") {
      at += 9
      let body = at
      guard let end = find("]]>") else { return truncated(start, "a CDATA section") }
      if collecting != nil { collecting! += bytes[body..<end] }
      at = end + 3
      return true
    }
    if matches("<!") {
      warn("line \(line(of: start)): it holds a document type declaration (<!DOCTYPE or <!ENTITY); duet reads no DTD and expands no entity, so it read no further")
      return false
    }
    guard let tag = XMLTag.read(bytes, at: start) else {
      return at + 1 >= bytes.count || find(">") == nil ? truncated(start, "a tag") : malformed(start)
    }
    at = tag.end
    if tag.closing { endElement(tag.name) } else { return startElement(tag) }
    return true
  }

  mutating func skip(past end: String, what: String, from start: Int, declaration: Bool = false) -> Bool {
    guard let found = find(end) else { return truncated(start, what) }
    if declaration { readDeclaration(bytes[start..<found]) }
    at = found + end.utf8.count
    return true
  }

  /// `<?xml ... encoding="..."?>`: ISO-8859-1 is read byte for byte; UTF-8 and
  /// ASCII as UTF-8; any other is read as UTF-8, with a warning.
  mutating func readDeclaration(_ text: ArraySlice<UInt8>) {
    guard text.starts(with: Array("<?xml".utf8)) else { return }
    let lower = String(decoding: text, as: UTF8.self).lowercased()
    guard let range = lower.range(of: "encoding") else { return }
    let value = lower[range.upperBound...].drop { " =\"'".contains($0) }.prefix { !"\"' ?".contains($0) }
    switch value {
    case "utf-8", "utf8", "us-ascii", "ascii": break
    case "iso-8859-1", "latin1", "latin-1", "iso8859-1": latin1 = true
    default: warn("it declares the encoding \(JUnitParser.clip(String(value))); duet reads it as UTF-8")
    }
  }

  mutating func truncated(_ offset: Int, _ what: String) -> Bool {
    warn("line \(line(of: offset)): it ends inside \(what) (a truncated report?)")
    at = bytes.count
    depth = 0
    return false
  }

  mutating func malformed(_ offset: Int) -> Bool {
    warn("line \(line(of: offset)): malformed markup; duet read the test cases before it")
    depth = 0
    return false
  }

  func matches(_ text: String) -> Bool {
    var index = at
    for byte in text.utf8 {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
    }
    return true
  }

  func find(_ text: String) -> Int? {
    let needle = Array(text.utf8)
    guard bytes.count >= needle.count else { return nil }
    var index = at
    while index + needle.count <= bytes.count {
      if bytes[index] == needle[0] && bytes[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}

/// What each element means to the reading.
extension JUnitParser {
  mutating func startElement(_ tag: XMLTag) -> Bool {
    sawRoot = true
    if !tag.selfClosing { depth += 1 }
    switch tag.localName {
    case "testsuite":
      if !tag.selfClosing { suites.append(text(tag["name"]) ?? "") }
    case "testcase":
      if open != nil { endCase() }
      let suite = text(tag["classname"]) ?? suites.last ?? ""
      open = TestCaseResult(suite: suite, name: text(tag["name"]) ?? "", outcome: .pass, duration: JUnitParser.seconds(text(tag["time"])))
      if tag.selfClosing { endCase() }
    case "failure", "error", "skipped":
      guard open != nil else { break }
      let outcome: TestOutcome = tag.localName == "failure" ? .fail : tag.localName == "error" ? .error : .skipped
      // The first failure or error decides; a skip never hides one.
      if open!.outcome == .pass || (open!.outcome == .skipped && outcome.failed) {
        open!.outcome = outcome
        open!.message = text(tag["message"]).flatMap(JUnitParser.firstLine)
        if open!.message == nil && !tag.selfClosing { collecting = [] }
      }
    default:
      break
    }
    return cases.count < limit || open == nil ? true : stopAtLimit()
  }

  mutating func endElement(_ name: [UInt8]) {
    depth = max(0, depth - 1)
    switch XMLTag.local(name) {
    case "testsuite": _ = suites.popLast()
    case "testcase": endCase()
    case "failure", "error", "skipped":
      if let text = collecting, open != nil, open!.message == nil {
        open!.message = JUnitParser.firstLine(string(text[...]))
      }
      collecting = nil
    default: break
    }
  }

  mutating func endCase() {
    collecting = nil
    guard let done = open else { return }
    open = nil
    if cases.count < limit { cases.append(done) } else { _ = stopAtLimit() }
  }

  mutating func stopAtLimit() -> Bool {
    warn("it holds more than \(limit) test cases; duet recorded the first \(limit)")
    open = nil
    at = bytes.count
    depth = 0
    return false
  }

  /// An attribute's value as text, in the report's encoding, cut to the field bound.
  func text(_ value: [UInt8]?) -> String? {
    value.map { JUnitParser.clip(string($0[...])) }
  }

  func string(_ bytes: ArraySlice<UInt8>) -> String {
    if latin1 { return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) }
    return String(decoding: bytes, as: UTF8.self)
  }

  static func clip(_ text: String) -> String {
    text.count <= JUnitReader.maxFieldLength ? text : String(text.prefix(JUnitReader.maxFieldLength)) + "…"
  }

  /// The first line that holds more than spaces, trimmed; nil when there is none.
  static func firstLine(_ text: String) -> String? {
    for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if !trimmed.isEmpty { return clip(trimmed) }
    }
    return nil
  }

  /// `time="0.012"`: seconds, finite and within the bound, else 0.
  static func seconds(_ text: String?) -> Double {
    guard let text, let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else { return 0 }
    return min(value, TestCaseResult.maxDuration)
  }
}
