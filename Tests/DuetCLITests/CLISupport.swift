import Foundation
import Testing

/// The `duet` binary that `swift build` put beside this test bundle.
let duetBinary: URL = {
  if let override = ProcessInfo.processInfo.environment["DUET_BINARY"] { return URL(fileURLWithPath: override) }
  var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  for _ in 0..<4 {
    let candidate = folder.appendingPathComponent("duet")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    folder = folder.deletingLastPathComponent()
  }
  return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/duet").standardizedFileURL
}()

/// The built `duet`, copied where any user can run it: a test that drops
/// privileges (root runs it as `nobody`) cannot reach a clone in a home folder
/// of mode 700 or a `mktemp -d` (exit 126 where 143 was expected; issue 53,
/// item 14). A folder of mode 755 in the system's temporary folder, made once
/// per test process; the copy is duet's exact bytes.
let duetBinaryForAnyUser: URL = {
  let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("duet-any-user-\(getpid())")
  let copy = folder.appendingPathComponent("duet")
  try? FileManager.default.removeItem(at: folder)
  do {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    try FileManager.default.copyItem(at: duetBinary, to: copy)
    chmod(copy.path, 0o755)
    atexit { try? FileManager.default.removeItem(atPath: "/tmp/duet-any-user-\(getpid())") }
    return copy
  } catch {
    Issue.record("cannot copy duet where any user can run it: \(error)")
    return duetBinary
  }
}()

/// What one run of `duet` did.
struct DuetRun {
  var status: Int32
  var stdout: String
  var stderr: String
  var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

/// A tree in a temporary folder for end-to-end tests, removed afterwards.
final class FixtureTree: Sendable {
  let url: URL

  init(manifest: String? = nil) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-e2e-\(UUID().uuidString)").resolvingSymlinksInPath()
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    if let manifest { try write("lanes/manifest.yaml", manifest) }
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func write(_ path: String, _ text: String) throws {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try writeClosingOnExec(Array(text.utf8), to: file.path)
  }

  func read(_ path: String) throws -> String {
    try String(contentsOf: url.appendingPathComponent(path), encoding: .utf8)
  }

  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path) }

  /// Runs duet in this tree, in-process (see `runDuet`).
  func duet(_ arguments: String..., environment: [String: String] = [:]) throws -> DuetRun {
    try runDuet(arguments, in: url, environment: environment)
  }

  /// `duet` with an argument list built at run time.
  func duet(arguments: [String], environment: [String: String] = [:]) throws -> DuetRun {
    try runDuet(arguments, in: url, environment: environment)
  }

  /// Runs the built binary in this tree and waits for it (at most `timeout` seconds,
  /// then it is killed): for what only a separate process shows (a hang, a crash).
  func binary(_ arguments: String..., environment: [String: String] = [:], timeout: Double = 60) throws -> DuetRun {
    try runBinary(arguments, in: url, environment: environment, timeout: timeout)
  }
}

/// The environment a test's duet sees: this process's, without colour or the
/// GitHub Actions switch, with the test's own variables on top.
func duetEnvironment(_ overrides: [String: String]) -> [String: String] {
  var env = ProcessInfo.processInfo.environment
  env["NO_COLOR"] = "1"
  env.removeValue(forKey: "GITHUB_ACTIONS")
  for (key, value) in overrides { env[key] = value }
  return env
}

/// Writes a file through a close-on-exec descriptor. Foundation's writes leave it
/// inheritable, and in-process runs of other tests spawn lanes meanwhile: a lane
/// that inherited it would keep the file open for writing, and running it (a stub
/// program on PATH) would fail with "Text file busy" while that lane lives.
func writeClosingOnExec(_ bytes: [UInt8], to path: String) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
  guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno]) }
  defer { close(fd) }
  var offset = 0
  while offset < bytes.count {
    let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
    if n < 0 && errno == EINTR { continue }
    guard n > 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno]) }
    offset += n
  }
}

/// Runs the built binary with `arguments` in `directory`; stdout and stderr are
/// read concurrently, so a chatty run cannot deadlock against the pipe buffer.
/// For signals, process groups, terminals, hangs and crashes; `runDuet` otherwise.
func runBinary(_ arguments: [String], in directory: URL, environment: [String: String] = [:], timeout: Double = 60,
               binary: URL = duetBinary, onStart: ((Process) -> Void)? = nil) throws -> DuetRun {
  try runBinary(arguments, in: directory, environment: environment, timeout: timeout, binary: binary,
                whileRunning: { process, _ in onStart?(process) })
}

/// `runBinary` whose `whileRunning` also sees stdout as far as it has been
/// written, so a test can wait for a line (`✓ quick`) before it acts.
func runBinary(_ arguments: [String], in directory: URL, environment: [String: String] = [:], timeout: Double = 60,
               binary: URL = duetBinary, whileRunning: (Process, _ stdout: () -> String) -> Void) throws -> DuetRun {
  let process = Process()
  process.executableURL = binary
  process.arguments = arguments
  process.currentDirectoryURL = directory
  process.environment = duetEnvironment(environment)
  let out = Pipe(), err = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = FileHandle.nullDevice
  let collected = Collected()
  let group = DispatchGroup()
  for (pipe, isOut) in [(out, true), (err, false)] {
    group.enter()
    DispatchQueue.global().async {
      // Chunk by chunk, so what is written so far can be read while duet runs.
      while case let data = pipe.fileHandleForReading.availableData, !data.isEmpty { collected.append(data, isOut: isOut) }
      group.leave()
    }
  }
  try process.run()
  whileRunning(process, { collected.out })
  let deadline = DispatchTime.now() + timeout
  if group.wait(timeout: deadline) == .timedOut {
    process.terminate()
    Issue.record("duet \(arguments.joined(separator: " ")) did not finish within \(timeout)s")
    group.wait()
  }
  process.waitUntilExit()
  return DuetRun(status: process.terminationStatus, stdout: collected.out, stderr: collected.err)
}

private final class Collected: @unchecked Sendable {
  private let lock = NSLock()
  private var outBytes = Data(), errBytes = Data()
  var out: String { lock.lock(); defer { lock.unlock() }; return String(decoding: outBytes, as: UTF8.self) }
  var err: String { lock.lock(); defer { lock.unlock() }; return String(decoding: errBytes, as: UTF8.self) }
  func append(_ data: Data, isOut: Bool) {
    lock.lock()
    defer { lock.unlock() }
    if isOut { outBytes.append(data) } else { errBytes.append(data) }
  }
}

/// Whether a process with this pid is still alive (zombies of other parents count as gone).
func processIsAlive(_ pid: Int32) -> Bool {
  guard kill(pid, 0) == 0 else { return false }
  let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
  let fields = status.split(separator: ")").last?.split(separator: " ") ?? []
  return fields.first != "Z"
}
