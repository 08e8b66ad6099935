import Foundation
import DuetModel
import DuetSupport

/// Everything needed to run one attempt of one lane.
struct StepRequest: Sendable {
  var index: Int
  var lane: Lane
  var attempt: Int
  var timeout: Double
  var workingDirectory: URL
  /// Where the attempt's output goes: the run's log folder and the file's
  /// name in it, created only when the lane first writes.
  var logFolder: URL
  var logFile: String
  /// The log file relative to the tree root, for reports.
  var logPath: String
  var environment: [String: String]
  /// Called with each output line when the user asked to `--stream` this lane.
  var onLine: (@Sendable (String) -> Void)?
  /// Set when the lane runs in the sandbox (`--sandbox`, `sandbox: true`).
  var sandbox: SandboxedStep?

  init(index: Int, lane: Lane, attempt: Int, timeout: Double, workingDirectory: URL, logFolder: URL, logFile: String, logPath: String, environment: [String: String], onLine: (@Sendable (String) -> Void)? = nil) {
    self.index = index
    self.lane = lane
    self.attempt = attempt
    self.timeout = timeout
    self.workingDirectory = workingDirectory
    self.logFolder = logFolder
    self.logFile = logFile
    self.logPath = logPath
    self.environment = environment
    self.onLine = onLine
  }
}
