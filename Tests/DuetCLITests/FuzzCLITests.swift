@testable import DuetFuzzSupport
@testable import DuetSupport
import Foundation
import Testing

/// How a sampled run of the binary ended: its exit status, or the signal that killed it.
struct FuzzRunEnd: Equatable {
  var status: Int32
  var signaled: Bool
  var timedOut: Bool
}

/// Runs the binary with output thrown away, killing it (SIGKILL) if it outlives
/// `timeout`: a hang is a finding, and must not hang the suite with it.
func runDuetSample(_ arguments: [String], in directory: URL, timeout: Double = 20) throws -> FuzzRunEnd {
  let process = Process()
  process.executableURL = duetBinary
  process.arguments = arguments
  process.currentDirectoryURL = directory
  var environment = ProcessInfo.processInfo.environment
  environment["NO_COLOR"] = "1"
  environment["DUET_HISTORY"] = "off"
  environment.removeValue(forKey: "GITHUB_ACTIONS")
  process.environment = environment
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  let done = DispatchSemaphore(value: 0)
  process.terminationHandler = { _ in done.signal() }
  try process.run()
  var timedOut = false
  if done.wait(timeout: .now() + timeout) == .timedOut {
    timedOut = true
    kill(process.processIdentifier, SIGKILL)
    done.wait()
  }
  return FuzzRunEnd(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal, timedOut: timedOut)
}

@Suite("Fuzz: a sample of mutated files through the built binary")
struct FuzzCLITests {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  /// Cases per kind; `DUET_FUZZ_CLI_CASES` changes it.
  static let casesPerKind = Int(ProcessInfo.processInfo.environment["DUET_FUZZ_CLI_CASES"] ?? "") ?? 60

  /// One kind of file: the example tree it lives in, the file, and the commands that read it.
  struct Kind: Sendable {
    var example: String
    var file: String
    var commands: [[String]]
  }

  static let kinds: [Kind] = [
    Kind(example: "Examples/Foyer", file: "lanes/manifest.yaml", commands: [["lanes"], ["verify", "--dry-run"], ["graph"], ["verify", "--dry-run", "--shard", "1/9223372036854775807"]]),
    Kind(example: "Examples/Foyer", file: "parity/design-tokens.yaml", commands: [["design-tokens", "--check"], ["theme-test"]]),
    Kind(example: "Examples/Atrium", file: "parity/manifest.yaml", commands: [["lanes"], ["verify", "--dry-run"]]),
    Kind(example: "Examples/Foyer", file: "src-ios/Libraries/FoyerKit/Tests/Mocks/HomeShellMocks.swift", commands: [["mocks", "--check"]]),
    Kind(example: "Examples/Atrium", file: "parity/design-tokens.yaml", commands: [["design-tokens", "--check"]]),
  ]

  /// A few hundred mutated manifests, token configs, parity manifests and mock files through the binary:
  /// every run exits 0, 1 or 2, none is killed by a signal or hangs, and nothing outside the tree changes.
  /// The kinds run side by side (each in its own tree); the runs of one kind stay in order.
  @Test func binarySurvivesMutatedFiles() throws {
    let outside = try OutsideFolder()
    try outside.write("secret.txt", "secret")
    let before = outside.listing()
    let kinds = FuzzCLITests.kinds
    let results = Locked([Result<(runs: Int, findings: [String]), any Error>?](repeating: nil, count: kinds.count))
    DispatchQueue.concurrentPerform(iterations: kinds.count) { index in
      let result = Result { try FuzzCLITests.run(kinds[index], index: index, outside: outside) }
      results.withLock { $0[index] = result }
    }
    var runs = 0
    for result in results.current {
      let kind = try #require(result).get()
      runs += kind.runs
      for finding in kind.findings { Issue.record(Comment(rawValue: finding)) }
    }
    #expect(runs == FuzzCLITests.casesPerKind * FuzzCLITests.kinds.count)
    #expect(outside.listing() == before)
  }

  /// Runs `casesPerKind` mutated cases of one kind in a copy of its example tree;
  /// returns how many ran and what went wrong, one line per failing case.
  static func run(_ kind: Kind, index kindIndex: Int, outside: OutsideFolder) throws -> (runs: Int, findings: [String]) {
    let tree = try FixtureTree()
    try? FileManager.default.removeItem(at: tree.url)
    try FileManager.default.copyItem(at: FuzzCLITests.repository.appendingPathComponent(kind.example), to: tree.url)
    try tree.link("outlink", to: outside.url.path)
    let target = tree.url.appendingPathComponent(kind.file)
    let original = Array(try Data(contentsOf: target).prefix(16 * 1024))
    var mutator = SeededMutator(seed: 0x16 &+ UInt64(kindIndex) << 32)
    var findings: [String] = []
    var runs = 0
    for number in 0..<FuzzCLITests.casesPerKind {
      try Data(mutator.mutate(original)).write(to: target)
      let arguments = kind.commands[number % kind.commands.count]
      let end = try runDuetSample(arguments, in: tree.url)
      runs += 1
      if end.signaled || end.timedOut || ![0, 1, 2].contains(end.status) {
        findings.append("duet \(arguments.joined(separator: " ")) on mutated \(kind.file) (seed case \(number)): \(end)")
      }
    }
    return (runs, findings)
  }
}
