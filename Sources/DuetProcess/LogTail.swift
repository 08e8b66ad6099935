/// What stays in memory of a lane's output: the lines that look like errors
/// (the first few) and the last lines, each bounded, however much the lane prints.
///
/// Lines are kept as bytes in a ring and made into text only when read: a lane
/// printing millions of short lines costs a copy per line, not a String.
package struct LogTail: Sendable, Equatable {
  static let lastLineCount = 30
  static let errorLineCount = 20
  static let maxLineLength = 400
  /// The most bytes of one line kept (a line is cut to `maxLineLength` characters when read).
  static let keptLineBytes = maxLineLength * 4

  package private(set) var errorLines: [String] = []
  package private(set) var byteCount = 0
  /// The last lines, oldest first from `ringStart`; each with whether it was cut.
  private var ring: [(bytes: [UInt8], cut: Bool)] = []
  private var ringStart = 0
  private var partial: [UInt8] = []
  private var partialOverflow = false

  init() {}

  package static func == (a: LogTail, b: LogTail) -> Bool {
    a.errorLines == b.errorLines && a.lastLines == b.lastLines && a.byteCount == b.byteCount
  }

  /// Whether a line is worth showing first: compiler errors, test failures, ✗ marks.
  static func looksLikeError(_ line: String) -> Bool {
    line.contains("error:") || line.contains("FAILED") || line.contains("✗")
  }

  /// The same test on bytes, without making a String of every line.
  static func looksLikeError(_ bytes: [UInt8]) -> Bool {
    func contains(_ needle: [UInt8]) -> Bool {
      guard bytes.count >= needle.count, let first = needle.first else { return false }
      var i = 0
      let last = bytes.count - needle.count
      while i <= last {
        if bytes[i] == first {
          var j = 1
          while j < needle.count && bytes[i + j] == needle[j] { j += 1 }
          if j == needle.count { return true }
        }
        i += 1
      }
      return false
    }
    return contains(Array("error:".utf8)) || contains(Array("FAILED".utf8)) || contains([0xE2, 0x9C, 0x97])
  }

  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    byteCount += bytes.count
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != 0x0A { end += 1 }
      let room = LogTail.keptLineBytes - partial.count
      let length = end - start
      if length <= room {
        partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
      } else {
        if room > 0 { partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + room)])) }
        partialOverflow = true
      }
      if end < bytes.count { finishLine() }
      start = end + 1
    }
  }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
  }

  /// Ends the output: a last line without a newline still counts.
  mutating func close() {
    if !partial.isEmpty { finishLine() }
  }

  private mutating func finishLine() {
    if errorLines.count < LogTail.errorLineCount && LogTail.looksLikeError(partial) {
      errorLines.append(LogTail.text(partial, cut: partialOverflow))
    }
    if ring.count < LogTail.lastLineCount {
      ring.append((partial, partialOverflow))
    } else {
      ring[ringStart].bytes.removeAll(keepingCapacity: true)
      ring[ringStart].bytes.append(contentsOf: partial)
      ring[ringStart].cut = partialOverflow
      ringStart = (ringStart + 1) % LogTail.lastLineCount
    }
    partial.removeAll(keepingCapacity: true)
    partialOverflow = false
  }

  /// A kept line as text: a carriage return dropped, cut at `maxLineLength`.
  static func text(_ bytes: [UInt8], cut: Bool) -> String {
    var line = String(decoding: bytes, as: UTF8.self)
    if line.hasSuffix("\r") { line.removeLast() }
    if line.count > maxLineLength || cut { line = String(line.prefix(maxLineLength)) + " …" }
    return line
  }

  /// The last lines, oldest first.
  var lastLines: [String] {
    (0..<ring.count).map { offset in
      let entry = ring[(ringStart + offset) % ring.count]
      return LogTail.text(entry.bytes, cut: entry.cut)
    }
  }

  /// The report of a failed lane: error-looking lines first (those the tail does
  /// not already show), then the last lines.
  package var reportLines: [String] {
    var lines: [String] = []
    let last = lastLines
    let tailSet = Set(last)
    let earlier = errorLines.filter { !tailSet.contains($0) }
    if !earlier.isEmpty {
      lines.append(contentsOf: earlier)
      lines.append("…")
    }
    lines.append(contentsOf: last)
    return lines
  }
}
