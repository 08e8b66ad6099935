import Foundation

/// `duet deflake LANE --runs N [--jobs J] [--test NAME]`, checked already.
struct DeflakeRequest: Sendable {
  var root: URL
  var lane: String
  /// `--test NAME`: the rate of this test case of the lane's `reports:`
  /// (`classname.name`, or the name alone), not of the lane.
  var test: String?
  var runs: Int
  /// How many runs go at once; above 1, each goes in a temporary worktree.
  var jobs = 1
  var duetVersion: String
  var builtinIdentity: (@Sendable () -> String)?
  /// What started it, as the history's `runs.command` column keeps it.
  var commandLine = "duet deflake"
  var environment: [String: String]

  init(root: URL, lane: String, runs: Int, duetVersion: String, environment: [String: String]) {
    self.root = root
    self.lane = lane
    self.runs = runs
    self.duetVersion = duetVersion
    self.environment = environment
  }
}
