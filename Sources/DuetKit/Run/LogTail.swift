/// What stays in memory of a lane's output: the lines that look like errors
/// (the first few) and the last lines, each bounded, however much the lane prints.
public struct LogTail: Sendable, Equatable {
  public static let lastLineCount = 30
  public static let errorLineCount = 20
  public static let maxLineLength = 400

  public private(set) var errorLines: [String] = []
  public private(set) var lastLines: [String] = []
  public private(set) var byteCount = 0
  private var partial: [UInt8] = []
  private var partialOverflow = false

  public init() {}

  /// Whether a line is worth showing first: compiler errors, test failures, ✗ marks.
  public static func looksLikeError(_ line: String) -> Bool {
    line.contains("error:") || line.contains("FAILED") || line.contains("✗")
  }

  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    byteCount += bytes.count
    for byte in bytes {
      if byte == 0x0A {
        finishLine()
      } else if partial.count < LogTail.maxLineLength * 4 {
        partial.append(byte)
      } else {
        partialOverflow = true
      }
    }
  }

  public mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  /// Ends the output: a last line without a newline still counts.
  public mutating func close() {
    if !partial.isEmpty { finishLine() }
  }

  private mutating func finishLine() {
    var line = String(decoding: partial, as: UTF8.self)
    if line.hasSuffix("\r") { line.removeLast() }
    if line.count > LogTail.maxLineLength || partialOverflow { line = String(line.prefix(LogTail.maxLineLength)) + " …" }
    partial.removeAll(keepingCapacity: true)
    partialOverflow = false
    if LogTail.looksLikeError(line) && errorLines.count < LogTail.errorLineCount { errorLines.append(line) }
    lastLines.append(line)
    if lastLines.count > LogTail.lastLineCount { lastLines.removeFirst(lastLines.count - LogTail.lastLineCount) }
  }

  /// The report of a failed lane: error-looking lines first (those the tail does
  /// not already show), then the last lines.
  public var reportLines: [String] {
    var lines: [String] = []
    let tailSet = Set(lastLines)
    let earlier = errorLines.filter { !tailSet.contains($0) }
    if !earlier.isEmpty {
      lines.append(contentsOf: earlier)
      lines.append("…")
    }
    lines.append(contentsOf: lastLines)
    return lines
  }
}
