import Foundation
import Testing
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#endif

/// Children started on the output pump's own thread, as the scheduler starts
/// the next lane where the previous one's end was noticed.
@Suite("Output pump hand-off")
struct PumpHandoffTests {
  /// A lane whose pipe is dropped (a grandchild outside its group holds it)
  /// ends on the pump's thread; a child started there and then is still
  /// watched, not left until some later timer wakes the pump.
  @Test func aChildStartedWhenADroppedPipeEndsALaneIsWatched() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.url.appendingPathComponent("ready").path
    #expect(mkfifo(fifo, 0o600) == 0)
    // The grandchild leaves the group, says so (with its pid) through the fifo, and keeps the pipe.
    let command = "setsid sh -c 'echo $$ > ready; exec sleep 30' & read pid < ready; echo $pid"
    let printed = Locked<[UInt8]>([])
    let second = DispatchSemaphore(value: 0)
    let secondEnd = Locked<ChildRun.End?>(nil)
    let limits = ChildRun.Limits(timeout: 120, killGrace: 1, drainGrace: 0.2)
    ChildRun.shell(command, directory: folder.url.path, environment: ["PATH": "/usr/bin:/bin"], limits: limits,
                   onBytes: { bytes in printed.withLock { $0.append(contentsOf: bytes) } },
                   completion: { _ in
                     ChildRun.shell("exit 4", directory: "/", environment: [:], limits: limits, onBytes: { _ in },
                                    completion: { end in
                                      secondEnd.withLock { $0 = end }
                                      second.signal()
                                    })
                   })
    let finished = second.wait(timeout: .now() + 30) == .success
    if let pid = pid_t(String(decoding: printed.current, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) {
      kill(pid, SIGKILL)
    }
    #expect(finished)
    #expect(secondEnd.current?.exitCode == 4)
  }
}
