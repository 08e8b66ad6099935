import Foundation
import Testing

/// Issue 52 and 54: libdispatch traps (SIGILL) when a source or queue cannot
/// get its epoll or eventfd descriptor, and waits for good when it cannot get a
/// thread; under `ulimit -n` or `-u` a verify died or hung inside it. So the
/// run's path has none: timers are the event loop's deadlines, workers are
/// threads made with `pthread_create` that fail with an answer. A semaphore or
/// a time (`DispatchSemaphore`, `DispatchTime`) asks the machine for nothing.
@Suite("No Dispatch source or queue on the run's path")
struct RunPathDispatchTests {
  /// Folders under `Sources/` a verify, doctor or watch runs through.
  static let runPath = ["DuetProcess", "DuetRun", "DuetSandbox", "DuetCache/Remote", "DuetApp/Verify", "DuetApp/Signals", "DuetApp/Call", "DuetApp/Commands", "DuetDoctor", "duet"]
  static let forbidden = ["DispatchSource", "DispatchQueue", "DispatchGroup", "DispatchWorkItem"]

  @Test func noneThere() throws {
    var found: [String] = []
    for folder in Self.runPath {
      let root = LayerTests.sources.appendingPathComponent(folder)
      let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
      for file in files.sorted() where file.hasSuffix(".swift") {
        let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
        for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
          for name in Self.forbidden where line.contains(name) { found.append("\(folder)/\(file):\(number + 1): \(name)") }
        }
      }
    }
    #expect(found == [], "use the event loop's deadlines or DetachedThread, which answer when the machine has nothing to give")
  }
}
