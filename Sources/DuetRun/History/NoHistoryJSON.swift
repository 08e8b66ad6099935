/// `--json` of `history`, `flaky` and `stats` before anything is recorded: the
/// store's path and empty `runs` and `lanes`, so one script reads all three.
public struct NoHistoryJSON: Codable, Sendable, Equatable {
  public var store: String
  public var runs: [String] = []
  public var lanes: [String] = []

  public init(store: String) {
    self.store = store
  }
}
