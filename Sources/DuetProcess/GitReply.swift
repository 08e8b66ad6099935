import Foundation

/// What a short git query answered: its output, a failure of git's own (it
/// exited non-zero or ran past its deadline), or the machine's (git could not
/// start: no descriptor, process or memory), which is no answer about the tree.
package enum GitReply: Sendable, Equatable {
  case output(Data)
  case failed
  /// Why git could not start (`cannot start /usr/bin/env …: Resource temporarily unavailable`).
  case machineShort(String)

  /// The output, or nil when there is none.
  package var output: Data? {
    if case .output(let data) = self { return data }
    return nil
  }

  /// The output as one trimmed line.
  package var line: String? {
    output.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
  }
}
