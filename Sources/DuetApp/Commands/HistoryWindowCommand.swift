import Foundation
import DuetCommandLine
import DuetSupport

/// A command that reads a window of the history store with the shared `--last N`.
protocol HistoryWindowCommand: Command {}

extension HistoryWindowCommand {
  static var last: Option<Self, Int?> {
    .positiveInt(OptionSpec(name: "--last", value: "N", help: "the window: the last N runs (default: 500)"))
  }
}
