import Foundation

/// The part of an adoption plan read from the tree's own CI: a lane per step
/// that checks something (`CIWorkflowChecks`), on the job's platform.
extension AdoptionPlan {
  mutating func addCIWorkflowLanes(_ survey: TreeSurvey, names: inout UniqueLaneNames) {
    let checks = survey.ciChecks
    if !checks.checks.isEmpty || !checks.unplaced.isEmpty {
      let files = Set(checks.checks.map(\.file))
      findings.append((".github/workflows", "\(checks.checks.count) check step(s) in \(files.count) workflow file(s), \(checks.unplaced.count) that cannot be a lane"))
    }
    for check in checks.checks {
      var lane = PlannedLane(
        name: names.claim(LaneNames.shortened("ci-" + check.job + "-" + check.step)),
        step: .shell(check.laneCommand),
        reason: "step '\(check.step)' of job \(check.job) in \(check.file) checks something; run here as the CI runs it")
      lane.platforms = check.platforms
      lane.dir = check.workingDirectory
      lane.env = check.env
      if check.needsBash { lane.requires = ["bash"] }
      if check.laneCommand != check.command { lane.reason += " (in \(check.shellPrefix), as GitHub runs it)" }
      if !check.expressionEnv.isEmpty {
        lane.reason += "; its env \(check.expressionEnv.joined(separator: ", ")) is a GitHub expression, which only the CI expands, so the lane leaves it out"
      }
      if let platforms = check.platforms { lane.reason += " (the job runs on \(platforms.map(\.rawValue).joined(separator: ", ")))" }
      lane.reason += "; without inputs: duet cannot tell what it reads, so it always runs"
      lanes.append(lane)
    }
    outside += checks.unplaced.map { ($0.subject, $0.reason) }
  }
}
