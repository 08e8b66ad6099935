import Foundation
import DuetSupport

/// `lanes/quarantine.yaml`: the reviewed list of tests (and lanes) whose
/// failures do not fail a run until a date. Read with every problem reported at
/// its `file:line:column`, as the manifest is; written whole, in one canonical
/// form under a header comment, atomically.
package struct QuarantineFile: Sendable, Equatable {
  package static let defaultPath = "lanes/quarantine.yaml"
  static let entryKeys = ["test", "exact", "lane", "reason", "until", "added"]
  /// How long `quarantine add` quarantines when no `--until` is given.
  package static let defaultDays = 30

  package var entries: [QuarantineEntry]

  init(entries: [QuarantineEntry] = []) { self.entries = entries }

  /// The file under `root`; an absent file is an empty quarantine.
  package static func load(root: URL, path: String = defaultPath, lanes: Set<String>) throws(QuarantineError) -> QuarantineFile {
    let url = root.appendingPathComponent(path)
    guard FileManager.default.fileExists(atPath: url.path) else { return QuarantineFile() }
    let node: YAMLNode
    do {
      node = try YAMLParser.load(url, file: path)
    } catch {
      throw QuarantineError(diagnostics: error.diagnostics)
    }
    return try parse(node, lanes: lanes)
  }

  /// Checks a parsed document: a list of entries (or `quarantine:` holding one), every lane known.
  static func parse(_ node: YAMLNode, lanes: Set<String>) throws(QuarantineError) -> QuarantineFile {
    var diagnostics = DiagnosticList()
    if node.isNull { return QuarantineFile() }
    var list = node
    if node.mapping != nil {
      guard let top = YAMLFields(node, context: "the quarantine", allowed: ["quarantine"], diagnostics: &diagnostics) else {
        throw QuarantineError(diagnostics: diagnostics.items)
      }
      guard let value = top.value("quarantine"), !value.isNull else { throw QuarantineError(diagnostics: diagnostics.items) }
      list = value
    }
    guard let items = list.sequence else {
      diagnostics.add("the quarantine: 'quarantine' must be a list of entries, got \(list.summary)", at: list.location)
      throw QuarantineError(diagnostics: diagnostics.items)
    }
    var entries: [QuarantineEntry] = []
    for (index, item) in items.enumerated() {
      if let entry = parseEntry(item, number: index + 1, lanes: lanes, diagnostics: &diagnostics) { entries.append(entry) }
    }
    guard diagnostics.isEmpty else { throw QuarantineError(diagnostics: diagnostics.items) }
    return QuarantineFile(entries: entries)
  }

  private static func parseEntry(_ item: YAMLNode, number: Int, lanes: Set<String>, diagnostics: inout DiagnosticList) -> QuarantineEntry? {
    let label = "quarantine entry \(number)"
    guard let fields = YAMLFields(item, context: label, allowed: entryKeys, diagnostics: &diagnostics) else { return nil }
    let test = fields.string("test", diagnostics: &diagnostics)
    if let test, test.allSatisfy(\.isWhitespace) {
      diagnostics.add("\(label): 'test' must not be empty (leave it out to quarantine the whole lane)", at: fields.value("test")?.location)
    }
    let exact = parseExact(fields, test: test, label: label, diagnostics: &diagnostics)
    let lane = fields.string("lane", required: true, diagnostics: &diagnostics)
    if let lane, !lanes.contains(lane) {
      diagnostics.add("\(label): unknown lane '\(lane)'\(Suggestion.hint(for: lane, in: lanes.sorted()))",
                      at: fields.value("lane")?.location)
    }
    let reason = fields.string("reason", required: true, diagnostics: &diagnostics)
    var until: QuarantineDate?
    if let text = fields.string("until", required: true, diagnostics: &diagnostics) {
      until = QuarantineDate(text)
      if until == nil {
        diagnostics.add("\(label): 'until' must be a real date written YYYY-MM-DD, got '\(text)'", at: fields.value("until")?.location)
      }
    }
    // `added:` is optional: files written before duet kept it have none, and
    // those written before it kept the time hold a day.
    var added: QuarantineMoment?
    if let text = fields.string("added", diagnostics: &diagnostics) {
      added = QuarantineMoment(text)
      if added == nil {
        diagnostics.add("\(label): 'added' must be a real moment written YYYY-MM-DDTHH:MM:SSZ (UTC), or a day YYYY-MM-DD, got '\(text)'",
                        at: fields.value("added")?.location)
      }
    }
    guard let lane, let reason, let until, lanes.contains(lane) else { return nil }
    return QuarantineEntry(test: test, exact: exact, lane: lane, reason: reason, until: until, added: added, location: item.location)
  }

  /// `exact:`, `true` or `false`, and only beside a `test`.
  private static func parseExact(_ fields: YAMLFields, test: String?, label: String, diagnostics: inout DiagnosticList) -> Bool {
    guard let text = fields.string("exact", diagnostics: &diagnostics) else { return false }
    guard text == "true" || text == "false" else {
      diagnostics.add("\(label): 'exact' must be true or false, got '\(text)'", at: fields.value("exact")?.location)
      return false
    }
    if test == nil {
      diagnostics.add("\(label): 'exact' needs a 'test' (a whole-lane entry names no test)", at: fields.value("exact")?.location)
    }
    return text == "true"
  }

  /// The whole file, canonical: a header saying what it is, then one entry per item.
  var text: String {
    var lines = [
      "# Quarantined tests and lanes (duet quarantine add / list / remove).",
      "# A lane whose failures are all quarantined tests passes; a lane-level entry",
      "# (no 'test:') keeps the lane's failure from failing the run. Each entry counts",
      "# through its 'until' day, then blocks again; 'added' is when it was written (UTC).",
      "# 'test' may hold the globs * and ?; 'exact: true' reads it as one name instead.",
      "# Review changes here like code.",
      "quarantine:",
    ]
    if entries.isEmpty { lines[lines.count - 1] = "quarantine: []" }
    for entry in entries {
      var first = true
      func field(_ key: String, _ value: String) {
        lines.append((first ? "  - " : "    ") + key + ": " + YAMLText.scalar(value).text)
        first = false
      }
      if let test = entry.test { field("test", test) }
      if entry.exact { lines.append("    exact: true") }
      field("lane", entry.lane)
      field("reason", entry.reason)
      // A day is duet's own `YYYY-MM-DD`, never tree text: written plain, as a
      // reviewer types it, though YAML 1.1 would read it as a date (duet reads
      // its text, and `YAMLText.scalar` now quotes such text from a tree).
      lines.append("    until: " + entry.until.description)
      // So is a moment, `YYYY-MM-DDTHH:MM:SSZ`: duet reads `added:` as its text.
      if let added = entry.added { lines.append("    added: " + added.description) }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The text, once it reads back with the reader `verify` uses as these very
  /// entries: `add`, `remove` and `suggest` never leave a file duet cannot
  /// read, which would switch off every entry in it. Throws the reader's
  /// problems, or names the first entry that read back otherwise.
  func checkedText(lanes: Set<String>) throws(QuarantineError) -> String {
    let text = self.text
    let node: YAMLNode
    do {
      node = try YAMLParser.parse(text, file: QuarantineFile.defaultPath)
    } catch {
      throw QuarantineError(diagnostics: error.diagnostics)
    }
    let back = try QuarantineFile.parse(node, lanes: lanes)
    func placeless(_ entries: [QuarantineEntry]) -> [QuarantineEntry] { entries.map { var entry = $0; entry.location = nil; return entry } }
    let written = placeless(entries), read = placeless(back.entries)
    guard written != read else { return text }
    let index = zip(written, read).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(written.count, read.count)
    let label = index < written.count ? written[index].label : "the file"
    throw QuarantineError(diagnostics: [Diagnostic("quarantine entry \(index + 1) (\(label)) would not read back as written")])
  }

  /// Writes the file under `root` atomically, only once its text reads back (`checkedText`).
  package func write(root: URL, path: String = defaultPath, lanes: Set<String>) throws {
    try AtomicFile.write(Data(checkedText(lanes: lanes).utf8), to: path, in: root)
  }
}
