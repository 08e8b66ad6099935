import DuetModel
import DuetSupport

/// What the run loop tells the printer as a run goes on, on the loop's thread.
package enum RunEvent: Sendable {
  case started(index: Int, name: String, attempt: Int)
  /// An attempt failed and the lane has retries left; the next attempt starts now.
  case retrying(index: Int, name: String, failed: LaneAttempt)
  case finished(LaneVerdict, finishedCount: Int, total: Int)
}
