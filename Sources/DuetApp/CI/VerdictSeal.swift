import DuetRun
import DuetSupport
import Foundation
import DuetHistory

/// What binds the verdicts a generated CI job hands on to the job (issue 52,
/// item 6b): `duet verify --seal` writes it beside the job's history store
/// (`STORE.seal`) after its lanes have ended, from the rows it recorded itself,
/// never read back from the store a lane could have written while it ran.
///
/// It names the store's runs from before the job's first verify (a digest of
/// their ids: the copy of the restored store) and, per run duet recorded in the
/// job, a digest of that run's verdict rows. A store verifies when it holds
/// exactly those runs, the sealed ones with exactly those rows: a run a lane
/// added, or a verdict it changed, and nothing in the store is believed.
/// A later `verify --seal` of the same job checks the store before its lanes
/// start and extends the seal; a store that no longer matched then is sealed
/// `broken`, so it never verifies again.
struct VerdictSeal: Sendable, Equatable {
  /// The digest of the ids of the runs the store held before the job's first verify.
  var baseline: String
  /// Each run duet recorded in the job, in order, with the digest of its rows.
  var runs: [(id: String, digest: String)] = []
  /// Why a later verify of the job found the store no longer matching; a broken seal never verifies.
  var broken: String?

  static func == (a: VerdictSeal, b: VerdictSeal) -> Bool {
    a.baseline == b.baseline && a.broken == b.broken && a.runs.map(\.id) == b.runs.map(\.id) && a.runs.map(\.digest) == b.runs.map(\.digest)
  }

  static let firstLine = "duet verdict seal 1"

  /// Where the seal of the store at `store` lies: beside it, so it travels with it.
  static func path(ofStore store: String) -> String { store + ".seal" }

  /// The seal as its file holds it, one line per entry.
  var text: String {
    var lines = [Self.firstLine, "baseline " + baseline]
    lines += runs.map { "run \($0.id) \($0.digest)" }
    if let broken { lines.append("broken " + broken.replacingOccurrences(of: "\n", with: " ")) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The seal `text` holds; nil when it is not one.
  /// The largest seal read: 16 MiB, over 100,000 runs' lines.
  static let maxBytes = 16 << 20

  static func parse(_ text: String) -> VerdictSeal? {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    guard lines.first == firstLine, lines.count >= 2, lines[1].hasPrefix("baseline ") else { return nil }
    var seal = VerdictSeal(baseline: String(lines[1].dropFirst("baseline ".count)))
    for line in lines.dropFirst(2) {
      let words = line.split(separator: " ", maxSplits: 2).map(String.init)
      if words.first == "run", words.count == 3 {
        seal.runs.append((words[1], words[2]))
      } else if words.first == "broken" {
        seal.broken = String(line.dropFirst("broken ".count))
      } else {
        return nil
      }
    }
    return seal
  }

  /// The digest of a set of run ids, in any order.
  static func digest(ofRunIDs ids: some Collection<String>) -> String {
    Digest.sha256(ids.sorted().map { field($0) }.joined())
  }

  /// The digest of a run's verdict rows, as duet recorded them and as the
  /// store reads them back: each field length-prefixed, steps by lane and attempt.
  static func digest(of run: RunRow, steps: [StepRow]) -> String {
    var text = field(run.id) + field(hex(run.started)) + field(run.outcome.rawValue)
    for step in steps.sorted(by: { ($0.lane, $0.attempt) < ($1.lane, $1.attempt) }) {
      text += field(step.lane) + field(String(step.attempt)) + field(hex(step.started))
      text += field(step.attemptOutcome?.rawValue ?? "-") + field(step.laneOutcome?.rawValue ?? "-")
      text += field(step.exitCode.map(String.init) ?? "-") + field(step.fingerprint ?? "-")
    }
    return Digest.sha256(text)
  }

  private static func field(_ text: String) -> String { "\(text.utf8.count):\(text)" }
  private static func hex(_ value: Double) -> String { String(value.bitPattern, radix: 16) }
}
