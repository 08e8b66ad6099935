import Foundation
import DuetSupport

/// Where a recorded run came from, as the reports of a team's pulled runs name
/// it: `ci JOB` on a GitHub Actions or GitLab CI runner (the job's name), else
/// `host NAME`. Read from the invocation's environment, never the process's.
package enum RecordOrigin {
  /// The longest origin kept; a longer job or host name is cut.
  static let maxLength = 200

  package static func of(environment: [String: String], host: String) -> String {
    let job: String?
    if environment[.githubActions] == "true" {
      job = environment[.githubJob]
    } else if environment[.gitlabCI] == "true" {
      job = environment[.gitlabJobName]
    } else {
      job = nil
    }
    let text = job.flatMap { $0.isEmpty ? nil : "ci \($0)" } ?? "host \(host)"
    // Printed by reports: no control character, whatever a variable holds.
    let clean = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    return String(clean.prefix(maxLength))
  }
}
