import Foundation
import DuetModel
import DuetSupport

/// Reads a mock file line by line for its block, then hands over the rest as the
/// body, in fixed-size chunks: a check never holds a large file in memory, and a
/// line without an end (a hostile or binary file) is cut off at `lineLimit`.
final class MockFileReader {
  private let fd: Int32
  private var buffer: [UInt8]
  private var start = 0
  private var atEnd = false
  /// Bytes handed out so far (lines and rest), so a caller knows where the body begins.
  private(set) var offset = 0
  let path: String

  static let chunkSize = 256 * 1024

  /// Opens `absolutePath`, a regular file only (PathGuard: a FIFO would block,
  /// a final link would read outside the tree); errors name `displayPath`.
  init(absolutePath: String, displayPath: String) throws(FileError) {
    let fd = try PathGuard.openRegularFile(atAbsolute: absolutePath, displayPath: displayPath)
    self.fd = fd
    self.buffer = []
    self.path = displayPath
  }

  /// Reads from bytes in memory (tests, and a file already read whole).
  init(bytes: [UInt8], displayPath: String) {
    self.fd = -1
    self.buffer = bytes
    self.atEnd = true
    self.path = displayPath
  }

  deinit { if fd >= 0 { close(fd) } }

  /// One line: its bytes without the `\n` (and without a `\r` before it), whether a
  /// newline ended it, and whether it was cut at the limit. Nil at the end of the file.
  struct Line {
    var bytes: [UInt8]
    var terminated: Bool
    var tooLong: Bool
    var text: String? {
      String(bytes: bytes, encoding: .utf8)
    }
  }

  func readLine(limit: Int = 64 * 1024) throws(FileError) -> Line? {
    var scanned = start
    while true {
      if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        var bytes = Array(buffer[start..<newline])
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        offset += newline + 1 - start
        start = newline + 1
        return Line(bytes: bytes, terminated: true, tooLong: false)
      }
      if buffer.count - start > limit {
        let bytes = Array(buffer[start..<(start + limit)])
        offset += limit
        start += limit
        return Line(bytes: bytes, terminated: false, tooLong: true)
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        let bytes = Array(buffer[start...])
        offset += buffer.count - start
        start = buffer.count
        return Line(bytes: bytes, terminated: false, tooLong: false)
      }
      // Everything before the old end holds no newline; fill() may move `start` to 0.
      let seen = buffer.count - start
      try fill()
      scanned = start + seen
    }
  }

  /// Feeds every byte not yet handed out into `digest`, chunk by chunk.
  func hashRest(into digest: inout Digest) throws(FileError) {
    while true {
      if start < buffer.count {
        buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        offset += buffer.count - start
      }
      buffer.removeAll(keepingCapacity: true)
      start = 0
      if atEnd { return }
      try fill()
    }
  }

  /// Every byte not yet handed out.
  func readRest() throws(FileError) -> [UInt8] {
    while !atEnd { try fill() }
    let rest = Array(buffer[start...])
    offset += rest.count
    start = buffer.count
    return rest
  }

  /// Appends one chunk from the file, dropping bytes already handed out. The
  /// chunk is read into uninitialised storage: zero-filling 256 KiB per read cost
  /// more than the read itself (most of `duet mocks --check` in a debug build).
  private func fill() throws(FileError) {
    if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
    var n = 0
    var code: Int32 = 0
    let chunk = [UInt8](unsafeUninitializedCapacity: MockFileReader.chunkSize) { storage, count in
      repeat {
        n = read(fd, storage.baseAddress!, MockFileReader.chunkSize)
      } while n < 0 && errno == EINTR
      if n < 0 { code = errno }
      count = max(n, 0)
    }
    if n < 0 { throw FileError.cannotRead(path, errno: code) }
    buffer.append(contentsOf: chunk)
    if n == 0 { atEnd = true }
  }
}
