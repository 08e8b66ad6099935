import Foundation

/// Whether an error is the machine running out (no file descriptor, no
/// process or thread, no memory) rather than anything about the tree: such a
/// failure is duet's `error` (exit 3), never a lane's or the run's `fail`.
package enum MachineShortage {
  /// The error numbers that mean the machine ran out.
  static let codes: Set<Int32> = [EMFILE, ENFILE, EAGAIN, ENOMEM]

  /// Whether a message ends with the system's words for running out (`cannot read lanes/manifest.yaml: Too many open files`).
  package static func named(in message: String) -> Bool {
    codes.contains { message.hasSuffix(String(cString: strerror($0))) }
  }

  package static func caused(_ error: any Error) -> Bool {
    if let file = error as? FileError {
      switch file {
      case .cannotRead(_, let code): return codes.contains(code)
      case .cannotWrite(_, let reason): return codes.contains { reason.hasSuffix(String(cString: strerror($0))) }
      case .outsideTree, .refused: return false
      }
    }
    let error = error as NSError
    if error.domain == NSPOSIXErrorDomain { return codes.contains(Int32(error.code)) }
    if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return caused(underlying) }
    return false
  }
}
