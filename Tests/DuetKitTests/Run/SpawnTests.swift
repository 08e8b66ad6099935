import Foundation
import Testing
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a child starts with, whichever way it is spawned (duet_spawn on
/// Linux, posix_spawn elsewhere): its environment in name order, stdin from
/// /dev/null, no blocked signals, and default actions for the signals duet ignores.
@Suite("Spawning")
struct SpawnTests {
  @Test func environmentIsSortedByName() {
    let captured = ChildRun.capture(path: "/usr/bin/env", arguments: ["/usr/bin/env"], directory: "/",
                                    environment: ["b": "1", "A1": "2", "A": "3", "B": "4", "A_": "5"], limits: .init(timeout: 30), keep: 4096)
    #expect(captured.end.exitCode == 0)
    #expect(captured.text.split(separator: "\n") == ["A=3", "A1=2", "A_=5", "B=4", "b=1"])
  }

  /// Each variable reaches the child byte for byte: an `=` or a line feed in
  /// the value, an empty value, text beyond ASCII.
  @Test func valuesReachTheChildAsTheyAre() {
    let environment = ["EQ": "a=b=c", "EMPTY": "", "LINES": "one\ntwo", "TEXT": "café 👩‍👩‍👧", "LONG": String(repeating: "x", count: 5000)]
    let captured = ChildRun.capture(path: "/usr/bin/env", arguments: ["/usr/bin/env", "-0"], directory: "/",
                                    environment: environment, limits: .init(timeout: 30), keep: 1 << 16)
    #expect(captured.end.exitCode == 0)
    let entries = captured.output.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
    #expect(entries == environment.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }.map { "\($0.key)=\($0.value)" })
  }

  @Test func stdinIsDevNullAndTheDirectoryIsSet() throws {
    let folder = try TemporaryFolder()
    let captured = ChildRun.captureShell("pwd; wc -c", directory: folder.url.path, environment: [:], limits: .init(timeout: 30), keep: 4096)
    let lines = captured.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(lines.count == 2)
    #expect(lines.first.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path } == folder.url.resolvingSymlinksInPath().path)
    #expect(lines.last == "0")
  }

  /// A child of a duet that ignores SIGUSR1 and SIGPIPE gets their default
  /// actions back, and starts with nothing blocked.
  @Test func ignoredSignalsAreResetAndNothingIsBlocked() throws {
    #if os(Linux)
    let oldUSR1 = signal(SIGUSR1, SIG_IGN)
    defer { signal(SIGUSR1, oldUSR1) }
    let oldPIPE = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, oldPIPE) }
    let captured = ChildRun.captureShell("grep -E '^Sig(Blk|Ign)' /proc/self/status", directory: "/", environment: [:],
                                         limits: .init(timeout: 30), keep: 4096)
    let fields = Dictionary(uniqueKeysWithValues: captured.text.split(separator: "\n").map { line -> (String, UInt64) in
      let parts = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
      return (parts[0], UInt64(parts[1], radix: 16) ?? .max)
    })
    #expect(fields["SigBlk"] == 0)
    let ignored = try #require(fields["SigIgn"])
    #expect(ignored & (1 << (UInt64(SIGUSR1) - 1)) == 0)
    #expect(ignored & (1 << (UInt64(SIGPIPE) - 1)) == 0)
    #endif
  }

  /// A descriptor duet (or a process hosting it) left open without close-on-exec
  /// is not a lane's: a lane holding another's pipe would keep it from ending,
  /// one holding the history store could lock it. The child has 0, 1 and 2 only.
  @Test func aChildInheritsOnlyItsThreeStandardDescriptors() throws {
    let leaked = open("/dev/null", O_RDONLY)  // no O_CLOEXEC, on purpose
    try #require(leaked > 2)
    defer { close(leaked) }
    let captured = ChildRun.captureShell("if [ -e /dev/fd/\(leaked) ]; then echo inherited; else echo closed; fi", directory: "/",
                                         environment: [:], limits: .init(timeout: 30), keep: 4096)
    #expect(captured.text == "closed\n")
  }

  @Test func aMissingDirectoryIsASpawnError() {
    let captured = ChildRun.captureShell("true", directory: "/no/such/folder/here", environment: [:], limits: .init(timeout: 30), keep: 100)
    #expect(captured.end.waitStatus == nil)
    #expect(captured.end.spawnError?.contains("/no/such/folder/here") == true)
  }

  @Test func exitCodesAndSignalsComeBack() {
    let limits = ChildRun.Limits(timeout: 30)
    #expect(ChildRun.captureShell("exit 7", directory: "/", environment: [:], limits: limits, keep: 0).end.exitCode == 7)
    #expect(ChildRun.captureShell("kill -TERM $$", directory: "/", environment: [:], limits: limits, keep: 0).end.signal == SIGTERM)
  }

  /// The progress line's durations read as `String(format:)` wrote them.
  @Test func durationTextMatchesStringFormat() {
    var values: [Double] = [0, 0.004, 0.005, 0.015, 0.125, 0.995, 1.005, 9.994, 9.995, 9.999, 10, 10.05, 59.94, 59.95, 59.99]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 { values.append(Double.random(in: 0..<60, using: &generator)) }
    for value in values {
      let expected = value < 10 ? String(format: "%.2fs", value) : String(format: "%.1fs", value)
      #expect(DurationText.format(value) == expected, "\(value)")
    }
  }
}
