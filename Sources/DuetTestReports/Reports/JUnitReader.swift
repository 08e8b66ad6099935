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
///
/// The report streams through a window (`ReportSource`): what has been read is
/// dropped as the next chunk comes in, so memory follows the largest piece of
/// markup (a tag, a comment), never the report's size.
enum JUnitReader {
  /// The most characters kept of a name or a message line; the rest is cut, with `…`.
  static let maxFieldLength = 1000

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
  static func read(_ bytes: [UInt8], limit: Int) -> (cases: [TestCaseResult], warning: String?) {
    let reading = read(.memory(bytes), limit: limit, until: ReadingDeadline(end: .max))
    return (reading.cases, reading.warning)
  }

  /// As `read(_:limit:)`, from `source`, stopping at `deadline` too (looked at
  /// before each chunk); `stop` says whether the case bound or the deadline ended it.
  static func read(_ source: ReportSource, limit: Int, until deadline: ReadingDeadline) -> (cases: [TestCaseResult], warning: String?, stop: Stop?) {
    var parser = JUnitParser(source: source, limit: limit, deadline: deadline)
    parser.run()
    return (parser.cases, parser.warning, parser.stop)
  }
}

/// The reading of one report, byte by byte, over a window of it.
struct JUnitParser {
  /// What the reading of one piece did.
  enum Step {
    /// Read; go on.
    case done
    /// The piece goes on past the window: read on once more of the report is in.
    case more
    /// The reading ends here.
    case stop
  }

  /// The report's bytes not yet dropped; `at` indexes them.
  var bytes: [UInt8] = []
  var source: ReportSource
  let limit: Int
  let deadline: ReadingDeadline
  var at = 0
  /// Line breaks in the bytes dropped, for a warning's line.
  var linesDropped = 0
  var utf8 = UTF8Check()
  var cases: [TestCaseResult] = []
  var warning: String?
  var stop: JUnitReader.Stop?
  /// The names of the open `<testsuite>` elements, innermost last.
  var suites: [String] = []
  /// The `<testcase>` being read, until its end tag.
  var open: TestCaseResult?
  /// The first line of an open `<failure>`, `<error>` or `<skipped>` without a `message`.
  var collecting: FieldText?
  /// Inside a CDATA section (its body streams through the window): where it
  /// starts (an offset in the report), and its line once its start is dropped.
  var cdata: (offset: Int, line: Int?)?
  /// The bytes dropped before the window.
  var dropped = 0
  /// Elements open, to tell a complete report from a truncated one.
  var depth = 0
  /// The declaration says ISO-8859-1: each byte is one character.
  var latin1 = false
  var sawRoot = false

  init(source: ReportSource, limit: Int, deadline: ReadingDeadline) {
    self.source = source
    self.limit = limit
    self.deadline = deadline
  }

  /// Keeps the first warning only: the one that explains the rest.
  mutating func warn(_ text: String) {
    if warning == nil { warning = text }
  }

  /// The 1-based line of byte `offset` of the window, for a warning.
  func line(of offset: Int) -> Int {
    var line = linesDropped + 1
    for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A { line += 1 }
    return line
  }

  /// Drops what has been read (the bytes before `at`) and reads the next chunk
  /// in; false when the report has ended or the deadline has passed.
  mutating func more() -> Bool {
    guard !source.ended else { return false }
    if deadline.passed {
      stopAtDeadline()
      return false
    }
    if at > 0 {
      if let start = cdata, start.line == nil { cdata!.line = line(of: start.offset - dropped) }
      utf8.feed(bytes[..<at])
      dropped += at
      for byte in bytes[..<at] where byte == 0x0A { linesDropped += 1 }
      bytes.removeFirst(at)
      at = 0
    }
    source.next(into: &bytes)
    return true
  }

  mutating func run() {
    while bytes.count < 3 && more() {}
    if stop != nil { return }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { at = 3 }
    if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
      warn("it is UTF-16, which duet does not read; write the report in UTF-8")
      return
    }
    while true {
      let step: Step = at >= bytes.count ? .more : cdata != nil ? cdataBody() : bytes[at] == UInt8(ascii: "<") ? markup() : text()
      switch step {
      case .done: continue
      case .stop: return
      case .more:
        guard more() else {
          if stop != nil { return }
          if at >= bytes.count { break }
          continue  // the report ended: the piece is read as it is
        }
        continue
      }
      break
    }
    if depth > 0 || !sawRoot {
      let inside = open.map { " inside test case '\(FieldText.clip($0.name))'" } ?? ""
      warn(sawRoot ? "it ends\(inside) before its elements close (a truncated report?)" : "it holds no XML element")
    }
    utf8.feed(bytes[...])
    if !latin1 && !utf8.finished {
      warn("it is not valid UTF-8 (nor declared ISO-8859-1); the bytes that are not are read as U+FFFD")
    }
  }

  /// Text up to the next `<`; at the window's end a reference it may cut
  /// (`&am` of `&amp;`) waits for the next chunk.
  mutating func text() -> Step {
    let start = at
    if let found = index(of: UInt8(ascii: "<"), from: at) {
      at = found
      collect(bytes[start..<found], decode: true)
      return .done
    }
    var end = bytes.count
    if !source.ended, let amp = bytes[max(start, end - 12)..<end].lastIndex(of: UInt8(ascii: "&")),
       !bytes[amp..<end].contains(UInt8(ascii: ";")) {
      end = amp
    }
    collect(bytes[start..<end], decode: true)
    at = end
    return .more
  }

  /// The body of a CDATA section, up to `]]>`: what the window holds of it is
  /// taken and dropped, but for two bytes that may start the `]]>`.
  mutating func cdataBody() -> Step {
    if let end = find("]]>") {
      collect(bytes[at..<end], decode: false)
      at = end + 3
      cdata = nil
      return .done
    }
    if source.ended {
      let start = cdata!
      warn("line \(start.line ?? line(of: start.offset - dropped)): it ends inside a CDATA section (a truncated report?)")
      depth = 0
      return .stop
    }
    let keep = max(at, bytes.count - 2)
    collect(bytes[at..<keep], decode: false)
    at = keep
    return .more
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

  /// One piece of markup at `<`; `.more` when the window ends inside it.
  mutating func markup() -> Step {
    let start = at
    if bytes.count - at < 9 && !source.ended { return .more }
    if matches("<?") { return skip(past: "?>", what: "a processing instruction", declaration: true) }
    if matches("<!--") { return skip(past: "-->", what: "a comment") }
    if matches("<![CDATA[") {
      cdata = (dropped + start, nil)
      at += 9
      return .done
    }
    if matches("<!") {
      warn("line \(line(of: start)): it holds a document type declaration (<!DOCTYPE or <!ENTITY); duet reads no DTD and expands no entity, so it read no further")
      return .stop
    }
    var cut = false
    guard let tag = XMLTag.read(bytes, at: start, cut: &cut) else {
      if cut && !source.ended { return .more }
      return cut ? truncated(start, "a tag") : malformed(start)
    }
    at = tag.end
    if tag.closing {
      endElement(tag.name)
    } else {
      _ = startElement(tag)
    }
    // Past the case bound the reading stops, whichever tag found it.
    return stop == nil ? .done : .stop
  }

  mutating func skip(past end: String, what: String, declaration: Bool = false) -> Step {
    guard let found = find(end) else { return source.ended ? truncated(at, what) : .more }
    if declaration { readDeclaration(bytes[at..<found]) }
    at = found + end.utf8.count
    return .done
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

  mutating func truncated(_ offset: Int, _ what: String) -> Step {
    warn("line \(line(of: offset)): it ends inside \(what) (a truncated report?)")
    depth = 0
    return .stop
  }

  mutating func malformed(_ offset: Int) -> Step {
    warn("line \(line(of: offset)): malformed markup; duet read the test cases before it")
    depth = 0
    return .stop
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
