import DuetCommandLine
import DuetSupport
import Foundation

/// Where a console's text goes: the process's stdout and stderr (the binary),
/// or two buffers (an in-process call, read when it returns). One lock
/// serialises every write to it, so lines from several threads (the run's
/// observer, the progress clock) never interleave, and every console that
/// writes to the process's streams shares it.
final class ConsoleOutput: Sendable {
  /// The buffers' text so far (empty for the process's streams).
  private struct Buffers {
    var stdout = ""
    var stderr = ""
  }

  private let buffers = Locked(Buffers())
  /// Whether the text goes to the process's streams (a terminal, perhaps) rather than the buffers.
  let isStandardStreams: Bool

  private init(isStandardStreams: Bool) { self.isStandardStreams = isStandardStreams }

  /// The process's stdout and stderr: one for the whole process.
  static let standardStreams = ConsoleOutput(isStandardStreams: true)

  /// Two new buffers.
  static func buffers() -> ConsoleOutput { ConsoleOutput(isStandardStreams: false) }

  /// The text written into the buffers so far, per stream.
  var text: (stdout: String, stderr: String) {
    let text = buffers.current
    return (text.stdout, text.stderr)
  }

  /// Writes `bytes` whole to stdout or stderr.
  func write(_ bytes: some Collection<UInt8>, error: Bool) {
    let streams = isStandardStreams
    buffers.withLock { buffers in
      if streams {
        ConsoleOutput.writeAll(Array(bytes), to: error ? STDERR_FILENO : STDOUT_FILENO)
      } else if error {
        buffers.stderr += String(decoding: bytes, as: UTF8.self)
      } else {
        buffers.stdout += String(decoding: bytes, as: UTF8.self)
      }
    }
  }

  /// Every byte to `fd`, again after an interrupted write; a descriptor that fails is given up.
  private static func writeAll(_ bytes: [UInt8], to fd: Int32) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 { if errno == EINTR { continue } else { return } }
        offset += n
      }
    }
  }
}
