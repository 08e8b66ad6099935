import DuetSupport

/// The words of a token file the Duet toolchain's engine wrote that do not
/// come from the config: its banner and the documentation above the
/// declarations every such file has (the vocabulary's enum, the value table's
/// extensions, the `tokenColor` helper). duet does not carry the engine's
/// words; it reads them from the file on disk and puts them back where they
/// stood, while every line that depends on the config is generated anew.
struct EngineProse: Sendable, Equatable {
  /// The lines before the file's first line of code, trailing blank lines dropped.
  var banner: [String] = []
  /// Each documentation block (`///` lines, or a `/** … */` block), as it
  /// stood, keyed by the declaration under it (`EngineProse.key`).
  var blocks: [String: [String]] = [:]

  /// The banner and blocks of `text`, a file in the engine's layout.
  static func read(_ text: String) -> EngineProse {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
    }
    var prose = EngineProse()
    var index = 0
    while index < lines.count, isCommentOrBlank(lines[index]) { index += 1 }
    prose.banner = Array(lines[..<index])
    while prose.banner.last?.isEmpty == true { prose.banner.removeLast() }
    var pending: [String] = []
    var inKDoc = false
    while index < lines.count {
      let line = lines[index]
      let trimmed = trim(line)
      index += 1
      if inKDoc {
        pending.append(line)
        inKDoc = trimmed != "*/"
      } else if trimmed == "/**" {
        pending = [line]
        inKDoc = true
      } else if trimmed.hasPrefix("///") {
        pending.append(line)
      } else if trimmed.isEmpty || trimmed.hasPrefix("//") {
        pending = []
      } else {
        if !pending.isEmpty {
          let next = lines[index...].first { !trim($0).isEmpty }.map(trim) ?? ""
          let key = key(trimmed, next: next)
          if prose.blocks[key] == nil { prose.blocks[key] = pending }
        }
        pending = []
      }
    }
    return prose
  }

  /// The block that documents `declaration` (as written, without
  /// indentation); an `extension` is told apart by its first member (`next`).
  func block(_ declaration: String, next: String = "") -> [String] {
    blocks[Self.key(declaration, next: next)] ?? []
  }

  /// A declaration's key: the line itself, and for an `extension` (a file
  /// has several of the same type) the line after it too.
  static func key(_ declaration: String, next: String) -> String {
    declaration.hasPrefix("extension ") ? declaration + "\n" + next : declaration
  }

  private static func isCommentOrBlank(_ line: String) -> Bool {
    let trimmed = trim(line)
    return trimmed.isEmpty || trimmed.hasPrefix("//")
  }

  private static func trim(_ line: String) -> String {
    var slice = Substring(line)
    while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
    return String(slice)
  }
}

/// A file in the engine's layout, line by line: a run of blank lines is
/// written as one (the engine's rule), so each part can ask for the blank
/// line it needs without knowing what stands before it.
struct EngineLines {
  private(set) var lines: [String] = []

  mutating func add(_ line: SourceLine) { lines.append(line.text) }
  mutating func add(_ more: [SourceLine]) { lines.append(contentsOf: more.map(\.text)) }
  mutating func blank() { lines.append("") }

  /// The engine's own lines (`EngineProse`'s banner or a block), as they stood.
  mutating func keep(_ prose: [String]) {
    add(prose.map { SourceLine(escaping: $0, in: .keptLine) })
  }

  /// Tree text (a `doc`, a `note`) escaped for `language` and wrapped at 80 columns.
  mutating func comment(_ text: String, prefix: SourceLine, in language: SourceLanguage) {
    let escaped = SourceLine(escaping: text, in: .paragraphs(language))
    lines.append(contentsOf: CommentText.lines(escaped.text, prefix: prefix.text))
  }

  /// `text` as a KDoc block at `indent` spaces.
  mutating func kdoc(_ text: String, indent: SourceLine) {
    add(indent + "/**")
    comment(text, prefix: indent + " * ", in: .kotlin)
    add(indent + " */")
  }

  /// The file's text: blank runs collapsed, leading and trailing blanks
  /// dropped, one newline at the end.
  var text: String {
    var out: [String] = []
    for line in lines where !(line.isEmpty && (out.last?.isEmpty ?? true)) { out.append(line) }
    while out.last?.isEmpty == true { out.removeLast() }
    return out.joined(separator: "\n") + "\n"
  }
}
