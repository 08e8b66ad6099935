import DuetSupport
import Foundation

/// Where a console's text goes: the process's stdout and stderr (the binary),
/// or two buffers (an in-process call, read when it returns).
enum ConsoleOutput: Sendable {
  case standardStreams
  case buffers(ConsoleBuffers)
}

/// The text an in-process call wrote, kept in the order written per stream.
final class ConsoleBuffers: Sendable {
  private let streams = Locked((stdout: "", stderr: ""))

  func append(_ text: String, error: Bool) {
    streams.withLock { if error { $0.stderr += text } else { $0.stdout += text } }
  }

  var text: (stdout: String, stderr: String) { streams.current }
}
