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
  /// "moved aside" as damaged. `disk` sees and moves the files; SQLite opens them.
  package static func open(path: String, disk: any StoreDisk = systemDisk) -> (store: HistoryStore?, warnings: [String]) {
    if let found = disk.status(path, following: true), found.kind != S_IFREG {
      return (nil, ["history: \(path) is \(PathGuard.kindName(mode_t(found.mode))), not a store file; this run is not recorded"])
    }
    do {
      return (try openRetryingWhileBusy(path: path, disk: disk), [])
    } catch {
      guard error.isCorrupt || isNotAStore(error) else {
        return (nil, ["history: cannot open \(error); this run is not recorded"])
      }
      let aside = path + ".corrupt-" + String(Int(Date().timeIntervalSince1970))
      do {
        try disk.move(path, to: aside)
        for suffix in ["-wal", "-shm"] where disk.status(path + suffix, following: true) != nil {
          try? disk.move(path + suffix, to: aside + suffix)
        }
      } catch {
        return (nil, ["history: \(path) is damaged and cannot be moved aside (\(error.why)); this run is not recorded"])
      }
      let warning = "history: \(path) was damaged; moved it to \(aside) and started a new store"
      do {
        return (try HistoryStore(path: path, disk: disk), [warning])
      } catch {
        return (nil, [warning, "history: cannot make a new store: \(error)"])
      }
    }
  }

  /// Opening may write (the first duet makes the schema); another duet doing
  /// the same can hold the lock past the busy timeout on a loaded machine.
  private static func openRetryingWhileBusy(path: String, disk: any StoreDisk) throws(HistoryError) -> HistoryStore {
    try retryingWhileBusy { () throws(HistoryError) in try HistoryStore(path: path, disk: disk) }
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
