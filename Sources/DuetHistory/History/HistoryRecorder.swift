import Foundation
import DuetModel
import DuetSupport

/// Opens and writes the store for `duet verify` so that recording never fails a
/// run: a locked store is retried, then skipped; a corrupt one is moved aside
/// (never deleted) and a new one made; every problem comes back as a warning.
package enum HistoryRecorder {
  /// The store at `path`, or nil with warnings when it cannot be had.
  /// Only a regular file (or a link to one) is a store: a device, a FIFO or a
  /// folder at `path` (`DUET_HISTORY=/dev/null`) is never opened, and so never
  /// "moved aside" as damaged.
  package static func open(path: String) -> (store: HistoryStore?, warnings: [String]) {
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
      return (nil, ["history: \(path) is \(PathGuard.kindName(info.st_mode)), not a store file; this run is not recorded"])
    }
    do {
      return (try openRetryingWhileBusy(path: path), [])
    } catch {
      guard error.isCorrupt || isNotAStore(error) else {
        return (nil, ["history: cannot open \(error); this run is not recorded"])
      }
      let aside = path + ".corrupt-" + String(Int(Date().timeIntervalSince1970))
      do {
        try FileManager.default.moveItem(atPath: path, toPath: aside)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
          try? FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
      } catch {
        return (nil, ["history: \(path) is damaged and cannot be moved aside (\(error.localizedDescription)); this run is not recorded"])
      }
      let warning = "history: \(path) was damaged; moved it to \(aside) and started a new store"
      do {
        return (try HistoryStore(path: path), [warning])
      } catch {
        return (nil, [warning, "history: cannot make a new store: \(error)"])
      }
    }
  }

  /// Opening may write (the first duet makes the schema); another duet doing
  /// the same can hold the lock past the busy timeout on a loaded machine.
  private static func openRetryingWhileBusy(path: String) throws(HistoryError) -> HistoryStore {
    try retryingWhileBusy { () throws(HistoryError) in try HistoryStore(path: path) }
  }

  /// `body`, tried up to four times while it fails because another duet holds
  /// the store's lock, waiting a little longer after each try.
  private static func retryingWhileBusy<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T {
    var attempt = 0
    while true {
      do {
        return try body()
      } catch {
        guard error.isBusy, attempt < 3 else { throw error }
        attempt += 1
        Thread.sleep(forTimeInterval: 0.2 * Double(attempt))
      }
    }
  }

  private static func isNotAStore(_ error: HistoryError) -> Bool {
    if case .notAStore = error { return true }
    return false
  }

  /// Writes a run, retrying a few times while another duet holds the lock.
  package static func record(_ run: RunRow, steps: [StepRow], parts: [String: FingerprintParts] = [:], tests: [TestCaseRow] = [],
                             in store: HistoryStore) -> [String] {
    do {
      try retryingWhileBusy { () throws(HistoryError) in try store.record(run, steps: steps, parts: parts, tests: tests) }
      return []
    } catch {
      return ["history: could not record this run: \(error)"]
    }
  }
}
