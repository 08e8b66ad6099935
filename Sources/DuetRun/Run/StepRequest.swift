import Foundation
import DuetModel
import DuetSupport

/// Everything needed to run one attempt of one lane.
public struct StepRequest: Sendable {
  public var index: Int
  public var lane: Lane
  public var attempt: Int
  public var timeout: Double
  public var workingDirectory: URL
  /// Where the attempt's output goes; created only when the lane first writes.
  public var logURL: URL
  /// `logURL` relative to the tree root, for reports.
  public var logPath: String
  public var environment: [String: String]
  /// Called with each output line when the user asked to `--stream` this lane.
  public var onLine: (@Sendable (String) -> Void)?

  public init(index: Int, lane: Lane, attempt: Int, timeout: Double, workingDirectory: URL, logURL: URL, logPath: String, environment: [String: String], onLine: (@Sendable (String) -> Void)? = nil) {
    self.index = index
    self.lane = lane
    self.attempt = attempt
    self.timeout = timeout
    self.workingDirectory = workingDirectory
    self.logURL = logURL
    self.logPath = logPath
    self.environment = environment
    self.onLine = onLine
  }
}
