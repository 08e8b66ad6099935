import DuetModel
import DuetRun
import DuetOutput
import DuetSupport
import Foundation
import DuetHistory

/// Opening the tree's history store for the commands that read it (history,
/// flaky, stats, report, trace, logs): the store, or `NoHistory` when nothing is
/// recorded yet. The store's place comes from the request's environment
/// (`DUET_HISTORY`), never from this process's.
enum HistoryAccess {
  enum Opened {
    case store(HistoryStore)
    case none(NoHistory)
  }

  static func openForReading(root: URL, environment: [String: String], command: String) throws(CommandFailure) -> Opened {
    guard let path = HistoryStore.defaultPath(root: root, environment: environment) else {
      throw CommandFailure(message: "duet \(command): error: history is off (DUET_HISTORY=off)", code: ExitCode.failed)
    }
    do {
      try PathGuard.checkStateFolder(root: root)
    } catch {
      throw CommandFailure(message: "duet \(command): error: \(error)", code: ExitCode.failed)
    }
    guard FileManager.default.fileExists(atPath: path) else { return .none(NoHistory(command: command, path: path, root: root)) }
    do {
      return .store(try HistoryStore(path: path))
    } catch {
      throw CommandFailure(message: "duet \(command): error: cannot open the history: \(error)", code: ExitCode.failed)
    }
  }

  static func displayPath(_ path: String, root: URL) -> String {
    path.hasPrefix(root.path + "/") ? String(path.dropFirst(root.path.count + 1)) : path
  }

  /// A recorded time as the tables print it, in local time.
  static func time(_ seconds: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }
}

/// No store yet: the command says so and where duet verify will make it.
struct NoHistory: Sendable {
  var command: String
  /// The store's path, absolute.
  var path: String
  var root: URL

  func printout(json: Bool) -> Printout {
    var printout = Printout()
    if json {
      printout.json(ReportJSON.text(NoHistoryJSON(store: path)))
    } else {
      printout.out("duet \(command): no runs recorded yet (\(HistoryAccess.displayPath(path, root: root)) does not exist; duet verify makes it)")
    }
    return printout
  }
}
