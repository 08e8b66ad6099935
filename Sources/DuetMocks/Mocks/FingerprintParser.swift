import DuetModel
import DuetSupport

/// Reads the fingerprint block at the top of a mock file, defensively: a block
/// edited into nonsense, cut short or missing is a value to report, never a crash.
enum FingerprintParser {
  /// What the top of a file holds.
  enum Result: Sendable, Equatable {
    /// A well-formed block; the body starts at byte `bodyStart`.
    case block(FingerprintBlock, bodyStart: Int)
    /// The file does not start with `// mock-templates:fingerprint`: all of it is body.
    case none
    /// A block that cannot be read.
    case malformed(BlockProblem)
  }

  /// Why a block cannot be read, and where the body most likely starts: after the
  /// end line if there is one, else after the leading lines that look like the block.
  struct BlockProblem: Sendable, Equatable, CustomStringConvertible {
    var line: Int
    var message: String
    var bodyStart: Int
    var description: String { "line \(line): \(message)" }
  }

  static let hexDigits = Set("0123456789abcdef".utf8)
  static let blockPrefixes = ["// mock-templates:", "// bundle:", "// config:", "// input:", "// body:"]

  /// Parses bytes in memory.
  static func parse(_ bytes: [UInt8]) -> Result {
    let reader = MockFileReader(bytes: bytes, displayPath: "")
    // In-memory reads cannot fail.
    return (try? parse(reader)) ?? .none
  }

  /// Parses from `reader`, leaving it at the first byte of the body when a block is found.
  static func parse(_ reader: MockFileReader) throws(FileError) -> Result {
    var blockReader = FingerprintBlockReader(reader)
    return try blockReader.read()
  }

  /// `sha256:<64 hex> <rest>` (or just the hash when `rest` may be absent); hex is read case-insensitively.
  static func hashAndRest(_ text: Substring, needsRest: Bool) -> (String, String)? {
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
  static func quoted(_ text: String) -> String {
    let short = text.count > 60 ? String(text.prefix(57)) + "..." : text
    return "'\(short)'"
  }
}

extension StringProtocol {
  var trimmingSpaces: String {
    String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }
}
