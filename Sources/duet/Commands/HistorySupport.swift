import Foundation
import DuetApp
import DuetSupport

/// Shared by the commands that read the history store.
enum HistoryAccess {
  static let lastOption = OptionSpec(name: "--last", value: "N", help: "the window: the last N runs (default: 500)")
}
