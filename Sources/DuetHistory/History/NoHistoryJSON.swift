/// `--json` of `history`, `flaky` and `stats` before anything is recorded: the
/// store's path and empty `runs` and `lanes`, so one script reads all three.
package struct NoHistoryJSON: Codable, Sendable, Equatable {
  package var store: String
  package var runs: [String] = []
  package var lanes: [String] = []

  package init(store: String) {
    self.store = store
  }
}
