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

  /// Why the reading of a report stopped before its end, for the one warning
  /// per attempt its reader gives (the line is where it stopped).
  enum Stop: Equatable {
    /// `limit` cases were read, and another began.
    case cases(line: Int)
    /// The deadline passed.
    case deadline(line: Int)
  }

  /// The cases of `bytes`, at most `limit` of them; `warning` says why the
  /// reading stopped early or what it could not take as it is.
  package static func read(_ bytes: [UInt8], limit: Int) -> (cases: [TestCaseResult], warning: String?) {
    let reading = read(bytes, limit: limit, until: ReadingDeadline(end: .max))
    return (reading.cases, reading.warning)
  }

  /// As `read(_:limit:)`, stopping at `deadline` too; `stop` says whether the
  /// case bound or the deadline ended it.
  static func read(_ bytes: [UInt8], limit: Int, until deadline: ReadingDeadline) -> (cases: [TestCaseResult], warning: String?, stop: Stop?) {
    var parser = JUnitParser(bytes: bytes, limit: limit, deadline: deadline)
    parser.run()
    return (parser.cases, parser.warning, parser.stop)
  }
}

/// The reading of one report, byte by byte.
struct JUnitParser {
  /// How often, in bytes read, the deadline is looked at.
  static let deadlineStride = 256 << 10

  let bytes: [UInt8]
  let limit: Int
  let deadline: ReadingDeadline
  var nextLook = 0
  var at = 0
  var cases: [TestCaseResult] = []
  var warning: String?
  var stop: JUnitReader.Stop?
  /// The names of the open `<testsuite>` elements, innermost last.
  var suites: [String] = []
  /// The `<testcase>` being read, until its end tag.
  var open: TestCaseResult?
  /// The first line of an open `<failure>`, `<error>` or `<skipped>` without a `message`.
  var collecting: FieldText?
  /// Elements open, to tell a complete report from a truncated one.
  var depth = 0
  /// The declaration says ISO-8859-1: each byte is one character.
  var latin1 = false
  var sawRoot = false

  init(bytes: [UInt8], limit: Int, deadline: ReadingDeadline) {
    self.bytes = bytes
    self.limit = limit
    self.deadline = deadline
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
      if at >= nextLook {
        nextLook = at + JUnitParser.deadlineStride
        if deadline.passed { return stopAtDeadline() }
      }
      if bytes[at] == UInt8(ascii: "<") {
        guard markup() else { return }
      } else {
        let start = at
        at = index(of: UInt8(ascii: "<"), from: at) ?? bytes.count
        collect(bytes[start..<at], decode: true)
      }
    }
    if depth > 0 || !sawRoot {
      let inside = open.map { " inside test case '\(FieldText.clip($0.name))'" } ?? ""
      warn(sawRoot ? "it ends\(inside) before its elements close (a truncated report?)" : "it holds no XML element")
    }
    if !latin1 && !UTF8Check.isValid(bytes) {
      warn("it is not valid UTF-8 (nor declared ISO-8859-1); the bytes that are not are read as U+FFFD")
    }
  }

  /// Text inside an open `<failure>`, `<error>` or `<skipped>`: only what its first line needs is kept.
  mutating func collect(_ text: ArraySlice<UInt8>, decode: Bool) {
    guard var line = collecting, !line.done else { return }
    collecting = nil  // so `line` is the only owner of its bytes while they grow
    if decode {
      XMLText.forEachByte(of: text, attribute: false) { line.take($0) }
    } else {
      for byte in text where !line.take(byte) { break }
    }
    collecting = line
  }

  mutating func stopAtDeadline() {
    stop = .deadline(line: line(of: at))
    warn("line \(line(of: at)): the lane's timeout ran out as duet read it; duet read the test cases before it")
    open = nil
    depth = 0
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
      collect(bytes[body..<end], decode: false)
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
  /// ASCII as UTF-8; any other is read as UTF-8, with a warning. Only its first
  /// 256 bytes are looked at: the declaration is short, a hostile one need not be.
  mutating func readDeclaration(_ text: ArraySlice<UInt8>) {
    guard text.starts(with: Array("<?xml".utf8)) else { return }
    let lower = String(decoding: text.prefix(256), as: UTF8.self).lowercased()
    guard let range = lower.range(of: "encoding") else { return }
    let value = lower[range.upperBound...].drop { " =\"'".contains($0) }.prefix { !"\"' ?".contains($0) }
    switch value {
    case "utf-8", "utf8", "us-ascii", "ascii": break
    case "iso-8859-1", "latin1", "latin-1", "iso8859-1": latin1 = true
    default: warn("it declares the encoding \(FieldText.clip(String(value))); duet reads it as UTF-8")
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

  /// The first `byte` at or after `start` (memchr: text runs are most of a report).
  func index(of byte: UInt8, from start: Int) -> Int? {
    guard start < bytes.count else { return nil }
    return bytes.withUnsafeBufferPointer { buffer in
      guard let found = memchr(buffer.baseAddress! + start, Int32(byte), buffer.count - start) else { return nil }
      return buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  func find(_ text: String) -> Int? {
    let needle = Array(text.utf8)
    var index = at
    while let found = self.index(of: needle[0], from: index) {
      guard found + needle.count <= bytes.count else { return nil }
      if bytes[found..<found + needle.count].elementsEqual(needle) { return found }
      index = found + 1
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
        open!.message = tag["message"].flatMap { firstLine($0) }
        if open!.message == nil && !tag.selfClosing { collecting = FieldText(firstLineOnly: true) }
      }
    default:
      break
    }
    return cases.count < limit || open == nil ? true : stopAtLimit()
  }

  mutating func endElement(_ name: ArraySlice<UInt8>) {
    depth = max(0, depth - 1)
    switch XMLTag.local(name) {
    case "testsuite": _ = suites.popLast()
    case "testcase": endCase()
    case "failure", "error", "skipped":
      if let text = collecting, open != nil, open!.message == nil {
        open!.message = text.text(latin1: latin1)
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
    stop = .cases(line: line(of: at))
    warn("it holds more than \(limit) test cases; duet recorded the first \(limit)")
    open = nil
    at = bytes.count
    depth = 0
    return false
  }

  /// An attribute's value as text, in the report's encoding, cut to the field bound.
  func text(_ value: ArraySlice<UInt8>?) -> String? {
    value.map { field($0, firstLineOnly: false) ?? "" }
  }

  /// The first line of an attribute's value that holds more than spaces, trimmed; nil when there is none.
  func firstLine(_ value: ArraySlice<UInt8>) -> String? {
    field(value, firstLineOnly: true)
  }

  func field(_ value: ArraySlice<UInt8>, firstLineOnly: Bool) -> String? {
    var kept = FieldText(firstLineOnly: firstLineOnly)
    XMLText.forEachByte(of: value, attribute: true) { kept.take($0) }
    return kept.text(latin1: latin1)
  }

  /// `time="0.012"`: seconds, finite and within the bound, else 0.
  static func seconds(_ text: String?) -> Double {
    guard let text, let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else { return 0 }
    return min(value, TestCaseResult.maxDuration)
  }
}
