/// Every environment variable duet reads or sets, by one name each: the code
/// reads and sets them through these cases (`environment[.history]`), the man
/// page's ENVIRONMENT section is made from them, and the lists that must not
/// drift (what lanes are given, what they never see) are filters of them.
package enum EnvironmentVariable: String, CaseIterable, Sendable {
  case history = "DUET_HISTORY"
  case skip = "DUET_SKIP"
  case remoteCache = "DUET_REMOTE_CACHE"
  case remoteCacheUpload = "DUET_REMOTE_CACHE_UPLOAD"
  case remoteCacheToken = "DUET_REMOTE_CACHE_TOKEN"
  case remoteCacheKey = "DUET_REMOTE_CACHE_KEY"
  case remoteCacheJobs = "DUET_REMOTE_CACHE_JOBS"
  case noColor = "NO_COLOR"
  case forceColor = "FORCE_COLOR"
  case clicolorForce = "CLICOLOR_FORCE"
  case term = "TERM"
  case columns = "COLUMNS"
  case path = "PATH"
  case githubActions = "GITHUB_ACTIONS"
  case githubStepSummary = "GITHUB_STEP_SUMMARY"
  case lane = "DUET_LANE"
  case root = "DUET_ROOT"
  case attempt = "DUET_ATTEMPT"
  case changedFiles = "DUET_CHANGED_FILES"
  case quarantinedTests = "DUET_QUARANTINED_TESTS"
  case failedTests = "DUET_FAILED_TESTS"
  case mockOutput = "DUET_MOCK_OUTPUT"
  case version = "DUET_VERSION"
  case commit = "DUET_COMMIT"
  case gitURL = "DUET_GIT_URL"
  case gitRef = "DUET_GIT_REF"

  /// What it does, for the man page: who reads or sets it, then what it holds.
  package var meaning: String {
    switch self {
    case .history: "read: where the history store is (default .duet/history.sqlite under the root); off records no run, the cache stays on"
    case .skip: "read: lanes (names or globs, comma-separated) duet verify leaves out, as --skip does"
    case .remoteCache: "read: the Bazel HTTP remote cache verify reads passes and outputs from (--remote-cache wins); unset or empty: none"
    case .remoteCacheUpload: "read: 1 or true also uploads each pass (what generated CI sets); read-only otherwise"
    case .remoteCacheToken: "read: a bearer token for the remote cache (or user:password@ in its URL); never printed or stored"
    case .remoteCacheKey: "read: signs uploaded entries (HMAC-SHA256); with it set, unsigned entries are never served"
    case .remoteCacheJobs: "read: remote cache transfers at once, 1 to 64 (default 16)"
    case .noColor: "read: any non-empty value turns colour off"
    case .forceColor: "read: set and not 0, colour even when output is not a terminal (NO_COLOR wins)"
    case .clicolorForce: "read: as FORCE_COLOR"
    case .term: "read: dumb turns colour and the rewritten status line off"
    case .columns: "read: the width reports wrap to when stdout is not a terminal (default 100)"
    case .path: "read: where requires: programs, doctor's probes and hook installs look"
    case .githubActions: "read: when true, failures become ::error annotations and log tails ::group:: blocks"
    case .githubStepSummary: "read: under GitHub Actions, the file the Markdown summary is appended to"
    case .lane: "set for shell lanes: the lane's name"
    case .root: "set for shell lanes and mock generators: the tree root's absolute path"
    case .attempt: "set for shell lanes: 1, then 2 and on for retries"
    case .changedFiles: "set under --since and --changed: a file listing the changed paths, one a line"
    case .quarantinedTests: "set for lanes with reports: a file of the lane's quarantined tests, one classname.name pattern a line, to hand the runner as exclusions"
    case .failedTests: "set under verify --failed-tests for each lane that runs only the cases its last run failed: a file of them, one classname.name a line, to hand the runner as a filter"
    case .mockOutput: "set for mock generators: the output file the generator must write"
    case .version: "set in generated workflows: the duet version a workflow installs"
    case .commit: "set in generated workflows: the duet commit a workflow installs"
    case .gitURL: "read by generated workflows: where a workflow builds duet from when no release binary fits"
    case .gitRef: "read by generated workflows: the branch, tag or commit of DUET_GIT_URL (default main)"
    }
  }

  /// Set by duet for every shell lane from its own run, never inherited.
  package static let givenToLanes: [EnvironmentVariable] = [.lane, .root, .attempt, .changedFiles, .quarantinedTests, .failedTests]

  /// The remote cache's settings, read together.
  package static let remoteCacheSettings: [EnvironmentVariable] = [.remoteCache, .remoteCacheToken, .remoteCacheUpload, .remoteCacheKey, .remoteCacheJobs]

  /// duet's own settings and secrets, which no lane sees (issue 51): a lane
  /// printing `env` would put the cache's token and signing key in its log.
  package static let withheldFromLanes: [EnvironmentVariable] = [.history] + remoteCacheSettings
}

extension Dictionary where Key == String, Value == String {
  /// The variable's value in this environment, by its one name.
  package subscript(_ variable: EnvironmentVariable) -> String? {
    get { self[variable.rawValue] }
    set { self[variable.rawValue] = newValue }
  }
}
