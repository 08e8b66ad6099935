/// A process's output cut into lines as it streams, each kept to its first
/// `limit` bytes (`\n` and `\r` end a line): for the scanners that read a
/// lane's output for a runner's or a shell's own words while the lane runs.
package struct StreamedLines: Sendable {
  private let limit: Int
  private var line: [UInt8] = []

  package init(limit: Int) { self.limit = limit }

  /// Hands each line that `bytes` completes to `judge` (its first `limit`
  /// bytes), until `judge` returns true: the line looked for was found.
  package mutating func feed(_ bytes: UnsafeRawBufferPointer, _ judge: ([UInt8]) -> Bool) -> Bool {
    for byte in bytes {
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
        defer { line.removeAll(keepingCapacity: true) }
        if !line.isEmpty && judge(line) { return true }
      } else if line.count < limit {
        line.append(byte)
      }
    }
    return false
  }

  /// Hands the last line, which no line break ended, to `judge`.
  package mutating func finish(_ judge: ([UInt8]) -> Bool) -> Bool {
    defer { line.removeAll() }
    return !line.isEmpty && judge(line)
  }
}
