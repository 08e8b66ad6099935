import Foundation
import Testing
@testable import DuetFuzzSupport
@testable import DuetRun
@testable import DuetHistory

/// A reader that stops reading (a paused pager, a stuck log shipper) must not
/// stop the run: lanes still time out, the run ends and is recorded, and the
/// output waits for the reader. The binary, because the point is a real pipe.
struct StalledOutputCLITests {
  /// `--stream` floods standard output, which nobody reads; a lane that sleeps
  /// past its timeout is still stopped and the run recorded while the pipe is full.
  @Test func aStalledReaderDoesNotHoldTheRun() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: chatty
          sh: 'i=0; while [ $i -lt 4000 ]; do echo "line $i of a lane that talks a lot, more than a pipe holds"; i=$((i+1)); done'
        - name: slow
          # A sleep that is the point: the lane outlasts its timeout.
          sh: sleep 30
          timeout: 2s
      """)
    let process = Process()
    process.executableURL = duetBinary
    process.arguments = ["verify", "--stream", "chatty", "--jobs", "2"]
    process.currentDirectoryURL = tree.url
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { process.terminate() } }

    // Nobody reads standard output until the run is in the history.
    let store = tree.url.appendingPathComponent(".duet/history.sqlite").path
    var recorded: RunRow?
    _ = eventually(within: 25) {
      if FileManager.default.fileExists(atPath: store) { recorded = try? HistoryStore(path: store).recentRuns(limit: 1).first }
      return recorded != nil
    }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(recorded?.outcome == .fail, "the run was not recorded while standard output was full")
    #expect(process.terminationStatus == 1)
    #expect(text.contains("chatty | line 3999 of a lane"))
    #expect(text.hasSuffix("duet verify: FAIL (1 timed out: slow)\n"), "\(text.suffix(300))")
  }
}
