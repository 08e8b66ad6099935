import Foundation
import DuetCommandLine
import DuetSupport

/// `duet deflake LANE --runs N`: one lane run N times on its current inputs,
/// every attempt recorded, and its failure rate with a 95% interval.
enum DeflakeCommand: TreeCommand, JSONCommand {
  static let runs = Option<Self, Int?>.positiveInt(
    OptionSpec(name: "--runs", value: "N", help: "run the lane N times (required)"))
  static let jobs = Option<Self, Int?>.positiveInt(
    OptionSpec(name: "--jobs", value: "J", help: "run J at once, each in a temporary git worktree of the current tree (default: 1, one after another here)", short: "-j"))
  static let test = Option<Self, String?>.text(
    OptionSpec(name: "--test", value: "NAME", help: "the failure rate of this test case of the lane's reports: (classname.name), not of the lane"))
    .checkingEach { test, command throws(UsageError) in
      guard test.isEmpty else { return }
      throw UsageError(message: "--test needs a test's name (classname.name)", command: command)
    }

  static let spec = CommandSpec(
    name: "deflake",
    summary: "run one lane N times on its current inputs and say how often it failed, with a 95% interval",
    usage: "duet deflake LANE --runs N [--jobs J] [--test NAME] [--json]",
    options: [runs.spec, jobs.spec, test.spec, json.spec, root.spec],
    details: "each run is a verify of the lane alone (not its needs, not from the cache), recorded in the history; a run that passed only on a retry counts as failed\nthe interval is the Wilson score interval: '0 of 20 failed' still means up to 16%\nwith --jobs above 1 each worker runs in a temporary git worktree holding HEAD, the uncommitted changes to tracked files and the untracked files git does not ignore (ignored files such as build folders are not copied)",
    positionals: [.lanes],
    exitCodes: [0: "no run failed", 1: "a run failed (or, with --test, the test failed in one)",
                2: "a usage error: no LANE, an unknown lane, no --runs, N or J below 1, --test of a lane without reports: or of a test no run reported, a lane skipped here",
                3: "duet could not start the lane, or git for a temporary worktree (no file descriptor, process or memory)", 130: "interrupted: the runs so far are stated"],
    examples: ["duet deflake coin --runs 30 --jobs 2": "how often the coin lane fails on the current tree, two runs at once",
               "duet deflake unit --test app.CartTest.addsItem --runs 20 --json": "how often one test case fails, as JSON (runs, failed, low, high)"]
  )
  static let maxPositionals = 1

  /// `duet deflake`'s command line: the lane, how many runs, how many at once.
  struct Options {
    var root: String?
    var json: Bool
    var lane: String
    var runs: Int
    var jobs: Int
    /// `--test NAME`, a name that is not empty.
    var test: String?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    guard let lane = line.positionals.first else {
      throw UsageError(message: "deflake needs a LANE, the lane to run again and again", command: "deflake")
    }
    guard let runs = try line[runs] else {
      throw UsageError(message: "deflake needs --runs N, how many times to run \(lane)", command: "deflake")
    }
    return Options(root: try line[root], json: try line[json], lane: lane, runs: runs, jobs: try line[jobs] ?? 1, test: try line[test])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    let root = try call.treeRoot(options.root)
    let invocation = call.invocation
    var request = DeflakeRequest(root: root, lane: options.lane, runs: options.runs, duetVersion: duetVersion, environment: call.environment)
    request.jobs = options.jobs
    request.test = options.test
    request.commandLine = invocation.commandLine
    request.builtinIdentity = duetCodeIdentity(invocation, root: root)
    let console = call.console
    let observer = VerifyObserver(warning: { console.err("duet deflake: warning: \($0)") }, error: { console.err("duet deflake: error: \($0)") })
    let response = try deflake(request, observer: observer, signals: { onSignal, body in invocation.duringSignals(onSignal, body) })
    return console.show(response, json: options.json)
  }
}
