import Foundation
import DuetSupport

extension HistoryStore {
  /// What of a run stays on the machine when it travels: the tree's root (a
  /// path of this machine), and that path and the home folder wherever the
  /// command line or a test's message holds them. The host and the origin
  /// travel: they say where the run came from.
  package struct Scrub: Sendable {
    var root: String
    var home: String?
    package init(root: String, home: String?) {
      self.root = root
      self.home = home
    }

    /// `text` with the root made relative (`./`) and the home folder `~`.
    func apply(_ text: String) -> String {
      var text = text
      if root.count > 1 { text = text.replacingOccurrences(of: root + "/", with: "").replacingOccurrences(of: root, with: ".") }
      if let home, home.count > 1 { text = text.replacingOccurrences(of: home, with: "~") }
      return text
    }

    /// A command line's words, each absolute path in it (`--junit /tmp/j.xml`,
    /// `--remote-cache=/x`) replaced by `<path>` once the root and home are taken out.
    func command(_ line: String) -> String {
      apply(line).split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
        word.hasPrefix("/") || word.contains("=/") ? (word.firstIndex(of: "=").map { String(word[...$0]) } ?? "") + "<path>" : String(word)
      }.joined(separator: " ")
    }
  }

  /// Writes the runs `ids` (their steps, test cases, and their fingerprints'
  /// parts) to a new store file at `path`, scrubbed (`Scrub`), in DELETE
  /// journal mode so the file stands alone: a run as it travels through the
  /// remote cache. Returns how many runs it holds.
  @discardableResult
  package func export(runs ids: Set<String>, to path: String, scrub: Scrub) throws(HistoryError) -> Int {
    var batch: MergeBatch
    do { batch = try self.batch(named: self.path, skipping: [], only: ids) } catch let error as HistoryError {
      throw error
    } catch {
      throw .sqlite(self.path, SQLiteError(code: 1, message: "\(error)"))
    }
    for index in batch.runs.indices {
      batch.runs[index].run.root = ""
      batch.runs[index].run.command = scrub.command(batch.runs[index].run.command)
      for test in batch.runs[index].tests.indices {
        batch.runs[index].tests[test].message = batch.runs[index].tests[test].message.map(scrub.apply)
      }
    }
    let copy = try HistoryStore(path: path)
    do {
      try copy.db.writeTransaction { try copy.write(batch) }
      _ = try copy.db.query("PRAGMA journal_mode=DELETE")
    } catch {
      throw .sqlite(path, SQLiteError(code: 1, message: "\(error)"))
    }
    return batch.runs.count
  }
}

extension HistoryStore {
  /// The commit each of the runs `ids` ran on; a run outside git has none.
  package func commits(ofRuns ids: Set<String>) throws(HistoryError) -> [String: String] {
    try reading {
      let statement = try db.prepare("SELECT git_commit FROM runs WHERE id = ?")
      var found: [String: String] = [:]
      for id in ids.sorted() {
        try statement.bind([.text(id)])
        if try statement.step(), let commit = statement.row.first?.text, !commit.isEmpty { found[id] = commit }
      }
      return found
    }
  }

  /// How many of the runs `ids` came from each origin (`ci JOB`, `host NAME`; `unknown` before schema 6).
  package func origins(ofRuns ids: Set<String>) throws(HistoryError) -> [String: Int] {
    try reading {
      guard try hasColumn("origin", in: "runs") else { return ids.isEmpty ? [:] : ["unknown": ids.count] }
      let statement = try db.prepare("SELECT origin FROM runs WHERE id = ?")
      var counts: [String: Int] = [:]
      for id in ids {
        try statement.bind([.text(id)])
        if try statement.step() { counts[statement.row.first?.text ?? "unknown", default: 0] += 1 }
      }
      return counts
    }
  }
}
