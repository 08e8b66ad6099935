import Foundation
import DuetSupport

/// Where one attempt's output goes: a log file made on the first byte (a lane that
/// prints nothing leaves no file), a bounded `LogTail`, and optional live lines.
/// Written only on the run loop's thread, so it needs no lock.
package final class LogSink {
  private var fd: Int32 = -1
  private var failedToOpen = false
  private var closed = false
  private var pendingLine: [UInt8] = []
  package private(set) var tail = LogTail()
  package private(set) var wroteFile = false

  /// The folder the log file goes in, made with the file.
  let folder: URL
  let fileName: String
  private let onLine: (@Sendable (String) -> Void)?

  /// The file's URL is worked out on the first byte, not here: most lanes
  /// print nothing, and URL arithmetic was a tenth of the run loop's own
  /// time per lane (issue 42, item 6).
  package init(folder: URL, fileName: String, onLine: (@Sendable (String) -> Void)?) {
    self.folder = folder
    self.fileName = fileName
    self.onLine = onLine
  }

  package func write(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count > 0 else { return }
    tail.append(bytes)
    if fd < 0 && !failedToOpen && !closed {
      try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      // A regular file standing there is replaced by a new one, never written
      // through: a restored log is the store's blob under a second name (a
      // link), which a lane that runs after all in the same run must not
      // overwrite. A symbolic link is replaced too, never followed out of the
      // run's logs (one made in the moment between is refused: O_NOFOLLOW).
      // Anything else (a device such as /dev/null) is written to.
      let path = folder.appendingPathComponent(fileName).path
      var info = stat()
      let kind = lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
      let replaced = kind == S_IFREG || kind == S_IFLNK
      if replaced { unlink(path) }
      fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (replaced ? O_EXCL : O_TRUNC), 0o644)
      failedToOpen = fd < 0
      wroteFile = fd >= 0
    }
    if fd >= 0 { _ = writeAll(fd, bytes) }
    guard let onLine else { return }
    for byte in bytes {
      if byte == 0x0A {
        onLine(String(decoding: pendingLine, as: UTF8.self))
        pendingLine.removeAll(keepingCapacity: true)
      } else if pendingLine.count < 4096 {
        pendingLine.append(byte)
      }
    }
  }

  package func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  package func close() {
    closed = true
    tail.close()
    if let onLine, !pendingLine.isEmpty { onLine(String(decoding: pendingLine, as: UTF8.self)) }
    pendingLine.removeAll()
    if fd >= 0 {
      Foundation.close(fd)
      fd = -1
    }
  }
}
