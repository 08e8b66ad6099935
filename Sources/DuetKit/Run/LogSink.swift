import Foundation

/// Where one attempt's output goes: a log file made on the first byte (a lane that
/// prints nothing leaves no file), a bounded `LogTail`, and optional live lines.
/// Locked, because the output thread and the runner's own notes (a timeout) both write.
final class LogSink: @unchecked Sendable {
  private let lock = NSLock()
  let url: URL
  private var fd: Int32 = -1
  private var failedToOpen = false
  private var tailStorage = LogTail()
  var tail: LogTail { lock.withLock { tailStorage } }
  private let onLine: (@Sendable (String) -> Void)?
  private var pendingLine: [UInt8] = []

  init(url: URL, onLine: (@Sendable (String) -> Void)?) {
    self.url = url
    self.onLine = onLine
  }

  private var created = false
  private var closed = false
  var wroteFile: Bool { lock.withLock { created } }

  func write(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count > 0 else { return }
    lock.lock()
    defer { lock.unlock() }
    tailStorage.append(bytes)
    if fd < 0 && !failedToOpen && !closed {
      try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      failedToOpen = fd < 0
      created = fd >= 0
    }
    if fd >= 0 {
      var offset = 0
      while offset < bytes.count {
        let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 { if errno == EINTR { continue } else { break } }
        offset += n
      }
    }
    if let onLine {
      for byte in bytes {
        if byte == 0x0A {
          onLine(String(decoding: pendingLine, as: UTF8.self))
          pendingLine.removeAll(keepingCapacity: true)
        } else if pendingLine.count < 4096 {
          pendingLine.append(byte)
        }
      }
    }
  }

  func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  func close() {
    lock.lock()
    defer { lock.unlock() }
    closed = true
    tailStorage.close()
    if let onLine, !pendingLine.isEmpty { onLine(String(decoding: pendingLine, as: UTF8.self)) }
    pendingLine.removeAll()
    if fd >= 0 {
      Foundation.close(fd)
      fd = -1
    }
  }
}
