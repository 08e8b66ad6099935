import DuetRun
import DuetSupport
import Foundation
import DuetHistory

/// A CI job's history store checked against its `VerdictSeal`: what the next
/// jobs believe of it (`UpstreamVerdicts`), and where a later verify of the
/// same job starts its seal from.
enum SealedStore {
  /// Why a store's verdicts are not believed.
  struct Mismatch: Error, Equatable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The ids of the runs duet recorded under the seal beside `store`, once the
  /// store is checked to hold exactly them besides the runs it held before.
  static func verifiedRuns(_ store: String) throws(Mismatch) -> [String] {
    guard let seal = try read(store) else { throw Mismatch("it has no seal of the verdicts duet recorded (\(VerdictSeal.path(ofStore: store)) is missing)") }
    if let broken = seal.broken { throw Mismatch(broken) }
    do {
      let history = try HistoryStore(path: store, readOnly: true)
      let ids = try history.runIDs()
      let sealed = Set(seal.runs.map(\.id))
      guard VerdictSeal.digest(ofRunIDs: ids.filter { !sealed.contains($0) }) == seal.baseline else {
        throw Mismatch("it holds runs duet did not record in that job")
      }
      let runs = Dictionary(try history.recentRuns(limit: Int(Int32.max)).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
      for entry in seal.runs {
        guard let run = runs[entry.id] else { throw Mismatch("run \(entry.id), which duet recorded there, is missing") }
        guard VerdictSeal.digest(of: run, steps: try history.steps(ofRuns: [entry.id])) == entry.digest else {
          throw Mismatch("the verdicts of run \(entry.id) are not those duet recorded")
        }
      }
      return seal.runs.map(\.id)
    } catch let error as Mismatch {
      throw error
    } catch {
      throw Mismatch("cannot read it: \(error)")
    }
  }

  /// The seal beside `store`; nil when there is none.
  static func read(_ store: String) throws(Mismatch) -> VerdictSeal? {
    let path = VerdictSeal.path(ofStore: store)
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    let data: Data
    // A seal is a line per run (about 140 bytes): one that came from an upstream
    // job larger than this is no seal duet wrote, and is not read into memory.
    do { data = try PathGuard.readRegularFile(atAbsolute: path, displayPath: path, limit: VerdictSeal.maxBytes) } catch {
      throw Mismatch("cannot read its seal: \(error)")
    }
    guard let seal = VerdictSeal.parse(String(decoding: data, as: UTF8.self)) else { throw Mismatch("\(path) is not a verdict seal") }
    return seal
  }

  /// The seal a `verify --seal` starts from, before any of its lanes runs: the
  /// one an earlier verify of the job wrote, checked against the store (sealed
  /// `broken` when it no longer matches, with a warning), else a new one over
  /// the runs the store holds now.
  static func opening(_ store: String) -> (seal: VerdictSeal, warning: String?) {
    do {
      guard let seal = try read(store) else {
        let ids = FileManager.default.fileExists(atPath: store) ? try HistoryStore(path: store, readOnly: true).runIDs() : []
        return (VerdictSeal(baseline: VerdictSeal.digest(ofRunIDs: ids)), nil)
      }
      // A broken seal stays broken; a whole one must still match.
      if seal.broken == nil { _ = try verifiedRuns(store) }
      return (seal, nil)
    } catch {
      let reason = "the history store changed after an earlier verify of this job sealed it: \("\(error)")"
      return (VerdictSeal(baseline: "", broken: reason), "\(reason); the verdicts this job hands on will not be believed")
    }
  }

  /// Writes `seal`, with `recorded` (the run this verify recorded, if it did)
  /// added, beside `store`; when it cannot, removes what lies there (a lane may
  /// have written it) and returns why, for the verdict (the job then fails).
  static func close(_ seal: VerdictSeal, recorded: (run: RunRow, steps: [StepRow])?, store: String) -> String? {
    var seal = seal
    if let recorded { seal.runs.append((recorded.run.id, VerdictSeal.digest(of: recorded.run, steps: recorded.steps))) }
    let path = VerdictSeal.path(ofStore: store)
    do {
      try AtomicFile.write(Data(seal.text.utf8), toAbsolute: path)
      return nil
    } catch {
      try? FileManager.default.removeItem(atPath: path)
      return "--seal: cannot write \(path): \(error)"
    }
  }
}
