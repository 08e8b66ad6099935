import Foundation
import DuetModel
import DuetSupport

/// Where a recorded run keeps its logs, and the check every history row passes
/// before duet reads or deletes through it: a merged store is written by a
/// lane job that runs a branch's own code, so its `log_id` and `log_path` are
/// hostile text until they look exactly like what `duet verify` writes.
package enum LogLocation {
  /// The folder of all runs' logs, relative to the tree root.
  package static let logsFolder = ".duet/logs"
  /// Log folders of this many recent runs are kept under `.duet/logs` (the run trims the rest).
  package static let keptLogFolders = 50

  /// Whether `id` is a run id as `duet verify` makes them: `20261202-181700-3f2a1b`.
  package static func isRunID(_ id: String) -> Bool {
    let bytes = Array(id.utf8)
    guard bytes.count == 22, bytes[8] == UInt8(ascii: "-"), bytes[15] == UInt8(ascii: "-") else { return false }
    let digits = bytes[0..<8] + bytes[9..<15]
    let hex = bytes[16..<22]
    return digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
      && hex.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
  }

  /// `.duet/logs/<logID>`, or nil when `logID` is not a run id.
  static func folder(logID: String) -> String? {
    isRunID(logID) ? "\(logsFolder)/\(logID)" : nil
  }

  /// Whether `path` is a log file directly in its run's folder:
  /// `.duet/logs/<logID>/<lane>[.attempt-N].log`, one plain file name.
  static func isLogPath(_ path: String, logID: String) -> Bool {
    guard let folder = folder(logID: logID), path.hasPrefix(folder + "/") else { return false }
    let name = path.dropFirst(folder.count + 1)
    return name.hasSuffix(".log") && name.count <= 255 && !name.hasPrefix(".")
      && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
  }

  /// Why a row read from a store cannot be used, or nil when it can.
  static func problem(run: RunRow, steps: [StepRow]) -> TerminalLine? {
    guard isRunID(run.logID) else {
      return "run \(run.id): log_id \(quoted(run.logID)) is not a run id such as 20261202-181700-3f2a1b"
    }
    // Text `duet history` and `duet logs` print: no terminal escapes or line breaks.
    for (name, text) in [("id", run.id), ("command", run.command), ("root", run.root), ("host", run.host), ("outcome", run.outcome.rawValue),
                         ("git_commit", run.gitCommit ?? ""), ("duet_version", run.duetVersion), ("origin", run.origin ?? "")] where hasControlCharacter(text) {
      return "run \(quoted(run.id)): \(name) holds a control character"
    }
    for step in steps {
      if !ManifestLoader.isValidName(step.lane) || step.lane.utf8.count > Lane.maxNameLength {
        return "run \(quoted(run.id)): lane \(quoted(step.lane)) is not a lane name"
      }
      if let path = step.logPath, !isLogPath(path, logID: run.logID) {
        return "run \(run.id), lane \(quoted(step.lane)): log_path \(quoted(path)) is not a log file in \(logsFolder)/\(run.logID)/"
      }
    }
    return nil
  }

  /// Deletes the log folder of run `logID`; false when there was none. A log id
  /// that is not a run id, or a `.duet`, `.duet/logs` or run folder that is a
  /// link, is refused: a store's rows never choose what duet deletes.
  package static func removeFolder(logID: String, root: URL) throws(FileError) -> Bool {
    guard let path = folder(logID: logID) else {
      throw .refused(quoted(logID).text, reason: "not a run id such as 20261202-181700-3f2a1b; its log folder is left alone")
    }
    try PathGuard.checkStateFolder(root: root)
    let url = try PathGuard.resolve(path, in: root)
    var info = stat()
    guard lstat(url.path, &info) == 0 else { return false }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw .refused(path, reason: "it is \(PathGuard.kindName(info.st_mode)), not a folder") }
    do {
      try FileManager.default.removeItem(at: url)
    } catch {
      throw .cannotWrite(path, reason: error.localizedDescription)
    }
    return true
  }

  /// Why the log at `logPath` of run `logID` is not there, as far as the tree
  /// tells: trimmed (as many newer run folders as duet keeps), its file deleted
  /// from a folder that is there, or its whole folder never in this tree.
  package static func missingReason(logPath: String, logID: String, root: URL) -> String {
    let logs = root.appendingPathComponent(logsFolder)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: logs.path)) ?? []
    if names.contains(logID) {
      return "\(logPath) is missing: its run's folder \(logsFolder)/\(logID) is there, but the file was deleted"
    }
    let newer = names.filter { isRunID($0) && $0 > logID }.count
    if newer >= keptLogFolders {
      return "\(logPath) is gone: duet keeps the logs of the last \(keptLogFolders) runs, and \(newer) runs are newer"
    }
    return "\(logPath) is missing: its run's folder \(logsFolder)/\(logID) is not in this tree (deleted, or the run was recorded from another checkout sharing this history store)"
  }

  /// The content of a recorded log, nil when it is gone; the row is checked
  /// again here, so a store merged before this check existed cannot lead out.
  package static func read(logPath: String, logID: String, root: URL) throws(FileError) -> Data? {
    guard isLogPath(logPath, logID: logID) else {
      throw .refused(quoted(logPath).text, reason: "the history names it as a log, but it is not a log file in \(logsFolder)/\(quoted(logID))/")
    }
    try PathGuard.checkStateFolder(root: root)
    return try PathGuard.read(logPath, in: root)
  }

  static func hasControlCharacter(_ text: String) -> Bool {
    text.unicodeScalars.contains(where: ControlText.needsEscape)
  }

  /// Hostile text, shown short and without control characters.
  static func quoted(_ text: String) -> TerminalLine {
    let cut = text.count > 80 ? String(text.prefix(80)) + "…" : text
    return "'\(cut)'"
  }
}
