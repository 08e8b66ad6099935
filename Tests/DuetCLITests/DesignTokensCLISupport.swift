import Foundation

/// Runs the built `duet` binary for the design-tokens end-to-end tests. (Kept
/// apart from the suite's shared helper so the two branches merge cleanly.)
enum DesignTokensCLI {
  /// The repository root, from this file's place in it.
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `duet` beside the test executable (SwiftPM builds both into one folder),
  /// else `.build/debug/duet`.
  static var binary: URL {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("duet")
    if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
    if let bundle = Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("duet"),
      FileManager.default.isExecutableFile(atPath: bundle.path)
    {
      return bundle
    }
    return repository.appendingPathComponent(".build/debug/duet")
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs `duet <arguments>` in `directory` with stdin from /dev/null, reading both pipes to the end.
  static func run(_ arguments: [String], in directory: URL) throws -> Result {
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read stderr on another thread so neither pipe can fill and block the child.
    let errorData = ErrorBox()
    let readDone = DispatchSemaphore(value: 0)
    let reader = Thread {
      errorData.set(err.fileHandleForReading.readDataToEndOfFile())
      readDone.signal()
    }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    readDone.wait()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errorData.value, as: UTF8.self))
  }

  /// A fresh temporary folder; the caller removes it.
  static func temporaryTree() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-tokens-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static func write(_ text: String, to path: String, in root: URL) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  /// The Foyer example's config, the tutorial's.
  static func foyerConfig() throws -> String {
    try String(contentsOf: repository.appendingPathComponent("Examples/Foyer/parity/design-tokens.yaml"), encoding: .utf8)
  }
}

/// The stderr bytes, handed from the reading thread.
private final class ErrorBox: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private var done = false
  func set(_ value: Data) {
    lock.lock()
    data = value
    done = true
    lock.unlock()
  }
  var isDone: Bool {
    lock.lock()
    defer { lock.unlock() }
    return done
  }
  var value: Data {
    lock.lock()
    defer { lock.unlock() }
    return data
  }
}
