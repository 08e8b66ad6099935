import Foundation
import Testing
@testable import DuetFuzzSupport

#if os(Linux)
/// Issue 39, item 12: with no room for threads (`ulimit -u` reached), duet
/// waited in Dispatch's retry for a worker that never came, and its signals,
/// handled on a Dispatch queue, were never heard: only SIGKILL ended it. Now
/// the signals have a thread of their own, made at start-up, and duet exits
/// on SIGINT and SIGTERM. The process limit binds only a user other than root,
/// so as root the run is made as `nobody` (setpriv); as anyone else, with the
/// limit on the user's own processes (prlimit). Linux only: util-linux's
/// setpriv and prlimit, and /proc. The limit counts every
/// process of that user, so the two cases run one after the other.
@Suite("duet out of threads still hears SIGINT and SIGTERM", .serialized)
struct OutOfThreadsCLITests {
  /// `duet verify` under a process limit that leaves room for two threads more
  /// than the user runs already (duet's main thread and its signal thread). The
  /// chain (setpriv, prlimit, sh) ends in `exec`, so the process is duet.
  func startStarved(in tree: FixtureTree) throws -> Process {
    let user = getuid() == 0 ? "nobody" : NSUserName()
    let threads = try shell("ps -L -u \(user) -o lwp= | wc -l", in: tree.url).output.trimmingCharacters(in: .whitespacesAndNewlines)
    let limit = (Int(threads) ?? 0) + 2
    chmod(tree.url.path, 0o777)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let asUser = getuid() == 0 ? ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : []
    process.arguments = asUser + ["prlimit", "--nproc=\(limit)", duetBinaryForAnyUser.path, "verify", "--jobs", "2"]
    process.currentDirectoryURL = tree.url
    process.environment = duetEnvironment(["DUET_HISTORY": "off"])
    let output = FileManager.default.createFile(atPath: tree.url.appendingPathComponent("out.txt").path, contents: nil)
    #expect(output)
    let log = try FileHandle(forWritingTo: tree.url.appendingPathComponent("out.txt"))
    process.standardOutput = log
    process.standardError = log
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Issue 52, items 1 and 2: under a process limit from 2 to 8 more than
  /// the user runs, `duet verify` neither hangs (it waited for good in
  /// Dispatch's `_dispatch_temporary_resource_shortage` from the observer's
  /// queue at 3, 4 and 7) nor fails: it ends at once, `error` (exit 3) where
  /// the lane could not start or fork, or passes.
  @Test func noHangWhenProcessesRunOut() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true | true | true; echo done\"}\n")
    chmod(tree.url.path, 0o777)
    let asUser = getuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup --clear-groups " : ""
    let user = getuid() == 0 ? "nobody" : NSUserName()
    let base = Int(try shell("ps -L -u \(user) -o lwp= | wc -l", in: tree.url).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    for extra in 2...8 {
      let run = try shell("\(asUser)prlimit --nproc=\(base + extra) timeout 30 '\(duetBinaryForAnyUser.path)' verify", in: tree.url,
                          environment: ["NO_COLOR": "1", "DUET_HISTORY": "off"])
      #expect(run.status == 0 || run.status == 3, "nproc +\(extra): exit \(run.status): \(run.output.suffix(600))")
      #expect(!run.output.contains("duet verify: FAIL"), "nproc +\(extra): \(run.output.suffix(600))")
    }
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func exitsOnTheSignal(_ signal: Int32) throws {
    // A sleep that is the point: the lanes run until the signal stops them.
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"sleep 60\"}\n  - {name: b, sh: \"sleep 60\"}\n")
    for tool in ["prlimit"] + (getuid() == 0 ? ["setpriv"] : []) {
      #expect(try shell("command -v \(tool)", in: tree.url).status == 0, "\(tool) (util-linux) is needed")
    }
    let process = try startStarved(in: tree)
    // Once duet is itself (the exec chain done); its first Dispatch call then waits for good.
    let command = "/proc/\(process.processIdentifier)/cmdline"
    #expect(eventually { ((try? String(contentsOfFile: command, encoding: .utf8)) ?? "").contains("verify") })
    kill(process.processIdentifier, signal)
    let ended = eventually(within: 45) { !process.isRunning }
    if !ended { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    let output = (try? tree.read("out.txt")) ?? ""
    #expect(ended, "duet did not exit after signal \(signal): \(output)")
    // Either the signal ended it, or (a loaded machine) duet found it could not
    // start the lanes before the signal came and ended ERROR, exit 3 (issue 52):
    // both are an end, never a hang.
    let endedAsError = process.terminationStatus == 3 && output.contains("ERROR")
    #expect(process.terminationStatus == 128 + signal || endedAsError, "exit \(process.terminationStatus): \(output)")
  }
}
#endif
