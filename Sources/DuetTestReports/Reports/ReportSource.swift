import Foundation

/// Where a report's bytes come from, a chunk at a time: an open file, read up
/// to the size it had when opened, or bytes in memory. The reader keeps only a
/// window of the report (what it has not yet consumed), so a report of 30 MB
/// costs a chunk of memory, not 30 MB.
struct ReportSource {
  /// The bytes a chunk holds at most (1 MiB).
  static let chunkSize = 1 << 20

  private let fd: Int32
  private let memory: [UInt8]
  private var offset = 0
  /// The bytes still to read.
  private var left: Int
  let chunk: Int

  /// The file open at `fd` (the caller closes it), read up to `size` bytes:
  /// what it holds past the size it had when opened is not read.
  static func file(_ fd: Int32, size: Int) -> ReportSource {
    ReportSource(fd: fd, memory: [], left: size, chunk: chunkSize)
  }

  /// Bytes in memory, handed out `chunk` bytes at a time (tests split a report anywhere).
  static func memory(_ bytes: [UInt8], chunk: Int = Int.max) -> ReportSource {
    ReportSource(fd: -1, memory: bytes, left: bytes.count, chunk: max(1, chunk))
  }

  private init(fd: Int32, memory: [UInt8], left: Int, chunk: Int) {
    self.fd = fd
    self.memory = memory
    self.left = left
    self.chunk = chunk
  }

  var ended: Bool { left == 0 }

  /// Appends the next chunk to `window`; a read error ends the report there
  /// (the reader then says it is cut short).
  mutating func next(into window: inout [UInt8]) {
    let want = min(left, chunk)
    guard want > 0 else { return }
    guard fd >= 0 else {
      window += memory[offset..<offset + want]
      offset += want
      left -= want
      return
    }
    let start = window.count
    window += repeatElement(0, count: want)
    var count = 0
    while count < want {
      let n = window.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + start + count, want - count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      count += n
    }
    window.removeLast(want - count)
    left = count < want ? 0 : left - count
  }
}
