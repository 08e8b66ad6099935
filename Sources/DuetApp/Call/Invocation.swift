import Foundation
import DuetCommandLine

/// One call of duet: what a process is handed by whoever started it. Commands
/// read the working folder, the environment and standard input from here, never
/// from this process, so the same entry serves the binary and an in-process call
/// (the tests run most of the command line that way, in parallel, in one process).
struct Invocation: Sendable {
  /// The words after `duet`.
  var arguments: [String]
  var workingDirectory: URL
  var environment: [String: String]
  /// Standard input; nil is this process's own (the binary's).
  var standardInput: Data?
  /// The duet executable a hook should call.
  var executable: URL
  /// Only the binary's `main` owns the process: it alone may take the signals,
  /// become the subreaper of what lanes leave behind, and exit.
  var ownsProcess: Bool
  /// The signal policy of the process, held by the invocation that owns it; nil in-process.
  var signals: SignalPolicy?
  /// The git commit the binary was built from (`Sources/duet/BuildCommit.swift`,
  /// which `tools/build-release` stamps); a plain build's, and an in-process call's, is unknown.
  var buildCommit = Invocation.unknownCommit
  /// What a build that no commit was stamped into says.
  static let unknownCommit = "unknown commit"

  init(arguments: [String], workingDirectory: URL, environment: [String: String], standardInput: Data?, executable: URL, ownsProcess: Bool) {
    self.arguments = arguments
    // A folder URL, so a relative path (`--junit reports/j.xml`) resolves inside it, not beside it.
    self.workingDirectory = URL(fileURLWithPath: workingDirectory.path, isDirectory: true)
    self.environment = environment
    self.standardInput = standardInput
    self.executable = executable
    self.ownsProcess = ownsProcess
  }

  /// The binary's own invocation, read from this process.
  static func process(signals: SignalPolicy) -> Invocation {
    let executable = runningExecutable() ?? URL(fileURLWithPath: CommandLine.arguments[0])
    var invocation = Invocation(
      arguments: Array(CommandLine.arguments.dropFirst()),
      workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
      environment: ProcessInfo.processInfo.environment,
      standardInput: nil, executable: executable, ownsProcess: true)
    invocation.signals = signals
    return invocation
  }

  /// This process's executable, links resolved. On Linux the kernel's
  /// `/proc/self/exe`: Foundation's `Bundle.main` lists the executable's
  /// folder (all of `/usr/local/bin`) to look for a bundle, a fifth of a
  /// static duet's start (issue 42, item 6).
  private static func runningExecutable() -> URL? {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return Bundle.main.executableURL?.resolvingSymlinksInPath() }
    return URL(fileURLWithPath: String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    #else
    return Bundle.main.executableURL?.resolvingSymlinksInPath()
    #endif
  }

  /// Runs `body` with `handler` taking the signals, where this invocation owns them.
  func duringSignals<T>(_ handler: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
    guard let signals else { return try body() }
    return try signals.during(handler, body)
  }

  /// The command line as a person would type it, for the history, without
  /// the credentials a URL may carry.
  var commandLine: String { shownCommandLine(["duet"] + arguments) }

  /// All of standard input, read once the command needs it.
  func readStandardInput() -> Data {
    standardInput ?? FileHandle.standardInput.readDataToEndOfFile()
  }
}
