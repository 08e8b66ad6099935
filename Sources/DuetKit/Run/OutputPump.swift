import CProcessShim
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread that reads every lane's output pipe with `poll`, as ninja does.
///
/// Dispatch read sources were tried first: with hundreds of short-lived pipes
/// whose descriptor numbers are reused at once, libdispatch's epoll backend on
/// Linux crashed in `_dispatch_event_loop_drain`. A poll loop over the open pipes
/// plus a wake-up pipe has no such state to go stale.
final class OutputPump: @unchecked Sendable {
  static let shared = OutputPump()

  /// Called on the pump thread: bytes as they arrive, then once at the end.
  struct Reader {
    var onBytes: (UnsafeRawBufferPointer) -> Void
    var onClose: () -> Void
  }

  private let lock = NSLock()
  private var pending: [(Int32, Reader)] = []
  private var dropRequests: Set<Int32> = []
  private var wakeRead: Int32 = -1
  private var wakeWrite: Int32 = -1

  private init() {
    var fds: [Int32] = [-1, -1]
    if duet_pipe_cloexec_nonblocking(&fds) == 0 {
      wakeRead = fds[0]
      wakeWrite = fds[1]
    }
    let thread = Thread { [unowned self] in self.loop() }
    thread.name = "duet.output"
    thread.start()
  }

  /// Starts reading `fd` (non-blocking); the pump closes it after `onClose`.
  func add(_ fd: Int32, _ reader: Reader) {
    lock.lock()
    pending.append((fd, reader))
    lock.unlock()
    wake()
  }

  /// Stops reading `fd` early (a grandchild outside the group holds the pipe).
  func drop(_ fd: Int32) {
    lock.lock()
    dropRequests.insert(fd)
    lock.unlock()
    wake()
  }

  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  private func loop() {
    var readers: [Int32: Reader] = [:]
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 16)
    while true {
      lock.lock()
      for (fd, reader) in pending { readers[fd] = reader }
      pending.removeAll()
      let drops = dropRequests
      dropRequests.removeAll()
      lock.unlock()
      for fd in drops {
        guard let reader = readers.removeValue(forKey: fd) else { continue }
        close(fd)
        reader.onClose()
      }

      var polled = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
      for fd in readers.keys { polled.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
      let ready = poll(&polled, nfds_t(polled.count), -1)
      if ready < 0 { continue }
      if polled[0].revents != 0 {
        while read(wakeRead, buffer.baseAddress, buffer.count) > 0 {}
      }
      for entry in polled.dropFirst() where entry.revents != 0 {
        guard let reader = readers[entry.fd] else { continue }
        var ended = false
        while true {
          let n = read(entry.fd, buffer.baseAddress, buffer.count)
          if n > 0 {
            reader.onBytes(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            continue
          }
          if n < 0 && errno == EINTR { continue }
          if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
          ended = true
          break
        }
        if ended {
          readers[entry.fd] = nil
          close(entry.fd)
          reader.onClose()
        }
      }
    }
  }
}
