import DuetOutput
import DuetRun
import DuetSupport
import Foundation
import DuetHistory

/// What a deflake measured: `coin: 10 of 30 runs failed (33%, 95% interval
/// 19%–51%) at fingerprint 3f2a…`; exit 0 when no run failed, 1 when one did,
/// 2 when `--test` named a test no run reported, 130 when interrupted.
struct DeflakeResponse: CommandResponse {
  var lane: String
  var test: String?
  var tally: DeflakeTally
  var jobs: Int

  var rate: FailureRate { tally.rate }

  var exitCode: Int32 {
    if tally.interrupted { return ExitCode.interrupted }
    if test != nil && tally.runs == 0 { return ExitCode.usage }
    return tally.failed > 0 ? ExitCode.failed : ExitCode.pass
  }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json {
      printout.json(ReportJSON.text(DeflakeJSON(self)))
      return printout
    }
    let measured = tally.interrupted ? "interrupted after \(tally.runs + tally.missing) run(s): " : ""
    let subject = test.map { "\($0) (lane \(lane))" } ?? lane
    if test != nil && tally.runs == 0 {
      printout.err("duet deflake: error: \(subject) is in the reports of none of the \(tally.missing) run(s); 'duet flaky --tests --lane \(lane)' names the tests its reports hold")
      return printout
    }
    let rate = tally.rate
    var line = "\(subject): \(measured)\(rate.failed) of \(rate.runs) run\(rate.runs == 1 ? "" : "s") failed (\(rate.percentText))"
    line += DeflakeResponse.where(tally.fingerprints)
    if tally.missing > 0 { line += "; not in the reports of \(tally.missing) other run(s)" }
    printout.out(TerminalLine(escaping: line))
    return printout
  }

  /// ` at fingerprint 3f2a…`, or the fingerprints when the runs saw several.
  static func `where`(_ fingerprints: [String]) -> String {
    let shown = fingerprints.map { String($0.prefix(12)) + "…" }
    switch shown.count {
    case 0: return ""
    case 1: return " at fingerprint \(shown[0])"
    default: return " at \(shown.count) fingerprints (\(FingerprintParts.listed(shown, limit: 3))): its inputs changed while it was measured"
    }
  }
}

/// `deflake --json`: the counts and the interval as fractions.
struct DeflakeJSON: Encodable {
  var lane: String
  var test: String?
  var runs: Int
  var failed: Int
  var rate: Double
  var low: Double
  var high: Double
  var fingerprints: [String]
  /// With `--test`: the runs whose reports did not hold the test.
  var notInReports: Int?
  var jobs: Int
  var interrupted: Bool

  init(_ response: DeflakeResponse) {
    let rate = response.rate
    lane = response.lane
    test = response.test
    runs = rate.runs
    failed = rate.failed
    self.rate = rate.rate
    low = rate.low
    high = rate.high
    fingerprints = response.tally.fingerprints
    notInReports = response.test == nil ? nil : response.tally.missing
    jobs = response.jobs
    interrupted = response.tally.interrupted
  }
}
