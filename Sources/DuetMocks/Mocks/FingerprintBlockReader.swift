import DuetModel
import DuetSupport

/// One pass over the fingerprint block at the top of a mock file, for
/// `FingerprintParser`. The state a problem report needs (which line is at
/// fault, where the block-like lines end) lives here, and each line of the
/// block has a method of its own; a problem stops the pass by throwing.
struct FingerprintBlockReader {
  /// Why the pass stopped before a whole block was read.
  enum Stop: Error {
    case file(FileError)
    case malformed(FingerprintParser.BlockProblem)
  }

  typealias Result = FingerprintParser.Result

  let reader: MockFileReader
  var lineNumber = 0
  /// The offset after the last line that looks like part of a block.
  var blockishEnd = 0
  var problemLine = 0
  var lastWasBlockish = true

  init(_ reader: MockFileReader) { self.reader = reader }

  /// Reads the block, leaving `reader` at the first byte of the body when one is found.
  mutating func read() throws(FileError) -> Result {
    do throws(Stop) {
      guard try readStartLine() else { return .none }
      let bundle = try readBundle()
      let (configHash, description) = try readConfig()
      let (inputs, bodyHash) = try readInputsAndBody()
      try readEndLine()
      let block = FingerprintBlock(bundle: bundle, configHash: configHash, description: description, inputs: inputs, bodyHash: bodyHash)
      return .block(block, bodyStart: reader.offset)
    } catch {
      switch error {
      case .file(let error): throw error
      case .malformed(let problem): return .malformed(problem)
      }
    }
  }

  mutating func next() throws(Stop) -> MockFileReader.Line? {
    let line: MockFileReader.Line?
    do { line = try reader.readLine() } catch { throw .file(error) }
    if line != nil { lineNumber += 1 }
    return line
  }

  /// Stops the pass with `message`, after reading on to the end line to know
  /// where the body starts.
  mutating func fail(_ message: String) throws(Stop) -> Never {
    var bodyStart = blockishEnd
    var stillBlockish = lastWasBlockish
    while let line = try next() {
      let text = line.text ?? ""
      if text == FingerprintBlock.endLine {
        bodyStart = reader.offset
        break
      }
      if stillBlockish && FingerprintParser.blockPrefixes.contains(where: { text.hasPrefix($0) }) {
        bodyStart = reader.offset
      } else {
        stillBlockish = false
      }
      if lineNumber > 1_000_000 { break }
    }
    throw .malformed(FingerprintParser.BlockProblem(line: max(problemLine, 1), message: message, bodyStart: bodyStart))
  }

  /// Whether the file starts with a fingerprint block at all; a start line of
  /// another version is a problem.
  mutating func readStartLine() throws(Stop) -> Bool {
    guard let first = try next() else { return false }
    let firstText = first.text ?? ""
    guard firstText.hasPrefix(FingerprintBlock.startPrefix) else { return false }
    blockishEnd = reader.offset
    problemLine = 1
    if firstText != FingerprintBlock.startLine {
      let version = firstText.dropFirst(FingerprintBlock.startPrefix.count).trimmingSpaces
      if version.hasPrefix("v") && version != "v1" {
        try fail("fingerprint format '\(version)' is not one this duet reads (v1)")
      }
      try fail("expected '\(FingerprintBlock.startLine)', found \(FingerprintParser.quoted(firstText))")
    }
    return true
  }

  /// The next line as text, or a problem: the file ends, the line is too long
  /// or not UTF-8, or the block ends before `what`.
  mutating func textLine(expecting what: String) throws(Stop) -> String {
    guard let line = try next() else {
      problemLine = lineNumber
      try fail("the file ends after line \(lineNumber), before '\(FingerprintBlock.endLine)': the block is cut short")
    }
    problemLine = lineNumber
    lastWasBlockish = false
    if line.tooLong { try fail("the line is longer than 64 KiB; expected \(what)") }
    guard let text = line.text else { try fail("the line is not UTF-8 text; expected \(what)") }
    if text == FingerprintBlock.endLine && what != "'\(FingerprintBlock.endLine)'" {
      blockishEnd = reader.offset
      try fail("the block ends early: expected \(what)")
    }
    if !line.terminated && text != FingerprintBlock.endLine {
      try fail("the file ends in the middle of the block: expected \(what)")
    }
    lastWasBlockish = FingerprintParser.blockPrefixes.contains(where: { text.hasPrefix($0) })
    if lastWasBlockish { blockishEnd = reader.offset }
    return text
  }

  /// `// bundle: <version>`
  mutating func readBundle() throws(Stop) -> String {
    let text = try textLine(expecting: "'// bundle: <version>'")
    guard text.hasPrefix("// bundle: ") else {
      try fail("expected '// bundle: <version>', found \(FingerprintParser.quoted(text))")
    }
    return String(text.dropFirst("// bundle: ".count))
  }

  /// `// config: sha256:<hex> <description>`, as (hash, description).
  mutating func readConfig() throws(Stop) -> (String, String) {
    let text = try textLine(expecting: "'// config: sha256:<hex> <description>'")
    guard text.hasPrefix("// config: "),
      let (configHash, description) = FingerprintParser.hashAndRest(text.dropFirst("// config: ".count), needsRest: false)
    else {
      try fail("expected '// config: sha256:<64 hex digits> <description>', found \(FingerprintParser.quoted(text))")
    }
    return (configHash, description)
  }

  /// The `// input:` lines, each path once, up to and including the `// body:` line.
  mutating func readInputsAndBody() throws(Stop) -> (inputs: [FingerprintBlock.Input], bodyHash: String) {
    var inputs: [FingerprintBlock.Input] = []
    var seen = Set<String>()
    while true {
      let line = try textLine(expecting: "an '// input:' or '// body:' line")
      if line.hasPrefix("// input: ") {
        let input = try parseInput(line)
        guard seen.insert(input.path).inserted else { try fail("input \(input.path) is listed twice") }
        inputs.append(input)
      } else if line.hasPrefix("// body: ") {
        return (inputs, try parseBodyHash(line))
      } else {
        try fail("expected an '// input:' or '// body:' line, found \(FingerprintParser.quoted(line))")
      }
    }
  }

  mutating func parseInput(_ line: String) throws(Stop) -> FingerprintBlock.Input {
    guard let (hash, path) = FingerprintParser.hashAndRest(line.dropFirst("// input: ".count), needsRest: true) else {
      try fail("expected '// input: sha256:<64 hex digits> <path>', found \(FingerprintParser.quoted(line))")
    }
    return FingerprintBlock.Input(path: path, sha256: hash)
  }

  mutating func parseBodyHash(_ line: String) throws(Stop) -> String {
    guard let (hash, rest) = FingerprintParser.hashAndRest(line.dropFirst("// body: ".count), needsRest: false),
      rest.isEmpty, !line.hasSuffix(" ")
    else {
      try fail("expected '// body: sha256:<64 hex digits>', found \(FingerprintParser.quoted(line))")
    }
    return hash
  }

  mutating func readEndLine() throws(Stop) {
    let text = try textLine(expecting: "'\(FingerprintBlock.endLine)'")
    guard text == FingerprintBlock.endLine else {
      try fail("expected '\(FingerprintBlock.endLine)', found \(FingerprintParser.quoted(text))")
    }
  }
}
