import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// Shared by the commands that read the history store.
enum HistoryAccess {
  static let lastOption = OptionSpec(name: "--last", value: "N", help: "the window: the last N runs (default: 500)")

  /// The tree's store for reading, or nil (after saying so) when nothing is recorded yet.
  static func openForReading(_ arguments: ParsedArguments, command: String, console: Console, json: Bool) throws -> HistoryStore? {
    let root = try treeRoot(arguments)
    guard let path = HistoryStore.defaultPath(root: root, environment: arguments.invocation.environment) else {
      throw CommandFailure(message: "duet \(command): error: history is off (DUET_HISTORY=off)", code: ExitCode.failed)
    }
    do {
      try PathGuard.checkStateFolder(root: root)
    } catch {
      throw CommandFailure(message: "duet \(command): error: \(error)", code: ExitCode.failed)
    }
    guard FileManager.default.fileExists(atPath: path) else {
      if json {
        console.out(jsonText(NoHistoryJSON(store: path)))
      } else {
        console.out("duet \(command): no runs recorded yet (\(displayPath(path, root: root)) does not exist; duet verify makes it)")
      }
      return nil
    }
    do {
      return try HistoryStore(path: path)
    } catch {
      throw CommandFailure(message: "duet \(command): error: cannot open the history: \(error)", code: ExitCode.failed)
    }
  }

  static func displayPath(_ path: String, root: URL) -> String {
    path.hasPrefix(root.path + "/") ? String(path.dropFirst(root.path.count + 1)) : path
  }

  static func time(_ seconds: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }
}

/// A command that ran but must end with a message and an exit code of its own.
struct CommandFailure: Error {
  var message: String
  var code: Int32
}
