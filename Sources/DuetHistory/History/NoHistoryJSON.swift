/// `--json` of `history`, `flaky` and `stats` before anything is recorded: the
/// store's path and empty `runs` and `lanes`, so one script reads all three.
package struct NoHistoryJSON: Codable, Sendable, Equatable {
  var store: String
  var runs: [String] = []
  var lanes: [String] = []

  package init(store: String) {
    self.store = store
  }
}
