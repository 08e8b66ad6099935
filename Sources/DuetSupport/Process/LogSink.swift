import Foundation

/// Where one attempt's output goes: a log file made on the first byte (a lane that
/// prints nothing leaves no file), a bounded `LogTail`, and optional live lines.
/// Behind one lock, because the output thread and the runner's own notes (a
/// timeout) both write.
package final class LogSink: Sendable {
  private struct State: Sendable {
    var fd: Int32 = -1
    var failedToOpen = false
    var created = false
    var closed = false
    var tail = LogTail()
    var pendingLine: [UInt8] = []
  }

  package let url: URL
  private let onLine: (@Sendable (String) -> Void)?
  private let state = Locked(State())

  package init(url: URL, onLine: (@Sendable (String) -> Void)?) {
    self.url = url
    self.onLine = onLine
  }

  package var tail: LogTail { state.withLock { $0.tail } }
  package var wroteFile: Bool { state.withLock { $0.created } }

  package func write(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count > 0 else { return }
    let lines = state.withLock { state -> [String] in
      state.tail.append(bytes)
      if state.fd < 0 && !state.failedToOpen && !state.closed {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        state.fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        state.failedToOpen = state.fd < 0
        state.created = state.fd >= 0
      }
      if state.fd >= 0 { _ = writeAll(state.fd, bytes) }
      guard onLine != nil else { return [] }
      var lines: [String] = []
      for byte in bytes {
        if byte == 0x0A {
          lines.append(String(decoding: state.pendingLine, as: UTF8.self))
          state.pendingLine.removeAll(keepingCapacity: true)
        } else if state.pendingLine.count < 4096 {
          state.pendingLine.append(byte)
        }
      }
      return lines
    }
    // Called outside the lock: the printer takes its own.
    if let onLine { lines.forEach(onLine) }
  }

  package func write(_ text: String) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
  }

  package func close() {
    let last = state.withLock { state -> String? in
      state.closed = true
      state.tail.close()
      let last = state.pendingLine.isEmpty ? nil : String(decoding: state.pendingLine, as: UTF8.self)
      state.pendingLine.removeAll()
      if state.fd >= 0 {
        Foundation.close(state.fd)
        state.fd = -1
      }
      return last
    }
    if let onLine, let last { onLine(last) }
  }
}
