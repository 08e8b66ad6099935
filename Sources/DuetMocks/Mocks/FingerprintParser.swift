import DuetModel
import DuetSupport

/// Reads the fingerprint block at the top of a mock file, defensively: a block
/// edited into nonsense, cut short or missing is a value to report, never a crash.
public enum FingerprintParser {
  /// What the top of a file holds.
  public enum Result: Sendable, Equatable {
    /// A well-formed block; the body starts at byte `bodyStart`.
    case block(FingerprintBlock, bodyStart: Int)
    /// The file does not start with `// mock-templates:fingerprint`: all of it is body.
    case none
    /// A block that cannot be read.
    case malformed(BlockProblem)
  }

  /// Why a block cannot be read, and where the body most likely starts: after the
  /// end line if there is one, else after the leading lines that look like the block.
  public struct BlockProblem: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var bodyStart: Int
    public var description: String { "line \(line): \(message)" }
  }

  package static let hexDigits = Set("0123456789abcdef".utf8)
  package static let blockPrefixes = ["// mock-templates:", "// bundle:", "// config:", "// input:", "// body:"]

  /// Parses bytes in memory.
  public static func parse(_ bytes: [UInt8]) -> Result {
    let reader = MockFileReader(bytes: bytes, displayPath: "")
    // In-memory reads cannot fail.
    return (try? parse(reader)) ?? .none
  }

  /// Parses from `reader`, leaving it at the first byte of the body when a block is found.
  package static func parse(_ reader: MockFileReader) throws(FileError) -> Result {
    var lineNumber = 0
    var blockishEnd = 0
    var problemLine = 0
    var lastWasBlockish = true

    func next() throws(FileError) -> MockFileReader.Line? {
      let line = try reader.readLine()
      if line != nil { lineNumber += 1 }
      return line
    }

    /// After a problem: keep reading to the end line, to know where the body starts.
    func problem(_ message: String) throws(FileError) -> Result {
      var bodyStart = blockishEnd
      var stillBlockish = lastWasBlockish
      while let line = try next() {
        let text = line.text ?? ""
        if text == FingerprintBlock.endLine {
          bodyStart = reader.offset
          break
        }
        if stillBlockish && blockPrefixes.contains(where: { text.hasPrefix($0) }) {
          bodyStart = reader.offset
        } else {
          stillBlockish = false
        }
        if lineNumber > 1_000_000 { break }
      }
      return .malformed(BlockProblem(line: max(problemLine, 1), message: message, bodyStart: bodyStart))
    }

    guard let first = try next() else { return .none }
    let firstText = first.text ?? ""
    guard firstText.hasPrefix(FingerprintBlock.startPrefix) else { return .none }
    blockishEnd = reader.offset
    problemLine = 1
    if firstText != FingerprintBlock.startLine {
      let version = firstText.dropFirst(FingerprintBlock.startPrefix.count).trimmingSpaces
      if version.hasPrefix("v") && version != "v1" {
        return try problem("fingerprint format '\(version)' is not one this duet reads (v1)")
      }
      return try problem("expected '\(FingerprintBlock.startLine)', found \(quoted(firstText))")
    }

    /// The next line as text, or a problem: the file ends, the line is too long or not UTF-8.
    func textLine(expecting what: String) throws(FileError) -> (String?, Result?) {
      guard let line = try next() else {
        problemLine = lineNumber
        return (nil, try problem("the file ends after line \(lineNumber), before '\(FingerprintBlock.endLine)': the block is cut short"))
      }
      problemLine = lineNumber
      lastWasBlockish = false
      if line.tooLong { return (nil, try problem("the line is longer than 64 KiB; expected \(what)")) }
      guard let text = line.text else { return (nil, try problem("the line is not UTF-8 text; expected \(what)")) }
      if text == FingerprintBlock.endLine && what != "'\(FingerprintBlock.endLine)'" {
        blockishEnd = reader.offset
        return (nil, try problem("the block ends early: expected \(what)"))
      }
      if !line.terminated && text != FingerprintBlock.endLine {
        return (nil, try problem("the file ends in the middle of the block: expected \(what)"))
      }
      lastWasBlockish = blockPrefixes.contains(where: { text.hasPrefix($0) })
      if lastWasBlockish { blockishEnd = reader.offset }
      return (text, nil)
    }

    // bundle
    var (text, failure) = try textLine(expecting: "'// bundle: <version>'")
    if let failure { return failure }
    guard let bundleText = text, bundleText.hasPrefix("// bundle: ") else {
      return try problem("expected '// bundle: <version>', found \(quoted(text ?? ""))")
    }
    let bundle = String(bundleText.dropFirst("// bundle: ".count))

    // config
    (text, failure) = try textLine(expecting: "'// config: sha256:<hex> <description>'")
    if let failure { return failure }
    guard let configText = text, configText.hasPrefix("// config: "),
      let (configHash, description) = hashAndRest(configText.dropFirst("// config: ".count), needsRest: false)
    else {
      return try problem("expected '// config: sha256:<64 hex digits> <description>', found \(quoted(text ?? ""))")
    }

    // inputs, then body
    var inputs: [FingerprintBlock.Input] = []
    var seen = Set<String>()
    var bodyHash: String?
    while bodyHash == nil {
      (text, failure) = try textLine(expecting: "an '// input:' or '// body:' line")
      if let failure { return failure }
      let line = text ?? ""
      if line.hasPrefix("// input: ") {
        guard let (hash, path) = hashAndRest(line.dropFirst("// input: ".count), needsRest: true) else {
          return try problem("expected '// input: sha256:<64 hex digits> <path>', found \(quoted(line))")
        }
        guard seen.insert(path).inserted else { return try problem("input \(path) is listed twice") }
        inputs.append(.init(path: path, sha256: hash))
      } else if line.hasPrefix("// body: ") {
        guard let (hash, rest) = hashAndRest(line.dropFirst("// body: ".count), needsRest: false), rest.isEmpty,
          !line.hasSuffix(" ")
        else {
          return try problem("expected '// body: sha256:<64 hex digits>', found \(quoted(line))")
        }
        bodyHash = hash
      } else {
        return try problem("expected an '// input:' or '// body:' line, found \(quoted(line))")
      }
    }

    (text, failure) = try textLine(expecting: "'\(FingerprintBlock.endLine)'")
    if let failure { return failure }
    guard text == FingerprintBlock.endLine else {
      return try problem("expected '\(FingerprintBlock.endLine)', found \(quoted(text ?? ""))")
    }
    let block = FingerprintBlock(bundle: bundle, configHash: configHash, description: description, inputs: inputs, bodyHash: bodyHash ?? "")
    return .block(block, bodyStart: reader.offset)
  }

  /// `sha256:<64 hex> <rest>` (or just the hash when `rest` may be absent); hex is read case-insensitively.
  package static func hashAndRest(_ text: Substring, needsRest: Bool) -> (String, String)? {
    guard text.hasPrefix("sha256:") else { return nil }
    let afterTag = text.dropFirst("sha256:".count)
    let hex = afterTag.prefix(64).lowercased()
    guard hex.utf8.count == 64, hex.utf8.allSatisfy({ hexDigits.contains($0) }) else { return nil }
    let after = afterTag.dropFirst(64)
    if after.isEmpty { return needsRest ? nil : (hex, "") }
    guard after.first == " " else { return nil }
    let rest = String(after.dropFirst())
    if needsRest && rest.isEmpty { return nil }
    return (hex, rest)
  }

  /// A line as a message quotes it: at most 60 characters.
  package static func quoted(_ text: String) -> String {
    let short = text.count > 60 ? String(text.prefix(57)) + "..." : text
    return "'\(short)'"
  }
}

extension StringProtocol {
  package var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
