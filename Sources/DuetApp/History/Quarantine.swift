import DuetModel
import DuetOutput
import DuetSupport
import DuetTestReports
import Foundation

/// `duet quarantine add|list|remove`: the reviewed file `lanes/quarantine.yaml`
/// of tests (and lanes) whose failures do not fail a run until a day.
public struct QuarantineRequest: Sendable {
  public enum Action: Sendable, Equatable {
    /// A test of a lane (nil: the whole lane), why, and through which day (nil: 30 days from today).
    case add(test: String?, lane: String, reason: String, until: String?)
    case list
    case remove(test: String?, lane: String)
  }

  public var root: URL
  public var action: Action
  /// The day `add` counts 30 days from, in UTC.
  public var today: Date

  public init(root: URL, action: Action, today: Date = Date()) {
    self.root = root
    self.action = action
    self.today = today
  }
}

public enum QuarantineResponse: CommandResponse {
  case added(QuarantineEntry, replaced: Bool)
  case listed([QuarantineEntry], today: QuarantineDate)
  case removed(QuarantineEntry)

  public var exitCode: Int32 { ExitCode.pass }

  public func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json {
      printout.out(ReportJSON.text(QuarantineJSON(self)))
      return printout
    }
    let file = QuarantineFile.defaultPath
    switch self {
    case .added(let entry, let replaced):
      printout.out("duet quarantine: \(replaced ? "updated" : "added") \(entry.label) until \(entry.until) in \(file): \(ControlText.shown(entry.reason))")
    case .removed(let entry):
      printout.out("duet quarantine: removed \(entry.label) from \(file)")
    case .listed(let entries, let today):
      guard !entries.isEmpty else {
        printout.out("duet quarantine: nothing is quarantined (\(file))")
        return printout
      }
      printout.out("duet quarantine: \(entries.count) entr\(entries.count == 1 ? "y" : "ies") in \(file)")
      let rows = entries.map { entry in
        [ControlText.shown(entry.lane), entry.test.map(ControlText.shown) ?? "(whole lane)", entry.until.description,
         entry.isActive(on: today) ? "active" : "expired", ControlText.shown(entry.reason)]
      }
      for line in TextTable(header: ["lane", "test", "until", "state", "reason"], rows: rows).lines(maxWidth: format.width) {
        printout.out("  " + line)
      }
    }
    return printout
  }
}

/// `--json` of `duet quarantine`.
struct QuarantineJSON: Encodable {
  struct Entry: Encodable {
    var lane: String
    @Nullable var test: String?
    var reason: String
    var until: String
    var expired: Bool?
  }
  var command: String
  var entries: [Entry]

  init(_ response: QuarantineResponse) {
    func entry(_ e: QuarantineEntry, expired: Bool? = nil) -> Entry {
      Entry(lane: e.lane, test: e.test, reason: e.reason, until: e.until.description, expired: expired)
    }
    switch response {
    case .added(let e, _): (command, entries) = ("add", [entry(e)])
    case .removed(let e): (command, entries) = ("remove", [entry(e)])
    case .listed(let list, let today): (command, entries) = ("list", list.map { entry($0, expired: !$0.isActive(on: today)) })
    }
  }
}

/// Throws `ManifestError` for the tree's manifest, `QuarantineError` for the
/// file, `UsageError` for a lane or day the request gets wrong, and
/// `CommandFailure` (exit 1) for `remove` of an entry the file does not hold.
public func quarantine(_ request: QuarantineRequest) throws -> QuarantineResponse {
  let lanes = Set(try TreeManifest.load(root: request.root).manifest.lanes.map(\.name))
  var file = try QuarantineFile.load(root: request.root, lanes: lanes)
  let today = QuarantineDate(request.today)
  switch request.action {
  case .list:
    return .listed(file.entries, today: today)
  case .add(let test, let lane, let reason, let untilText):
    try knownLane(lane, in: lanes)
    var until = today.adding(days: QuarantineFile.defaultDays)
    if let untilText {
      guard let day = QuarantineDate(untilText) else {
        throw UsageError(message: "--until needs a real date written YYYY-MM-DD, got '\(ControlText.shown(untilText))'", command: "quarantine")
      }
      until = day
    }
    guard !reason.allSatisfy(\.isWhitespace) else { throw UsageError(message: "--reason must not be empty", command: "quarantine") }
    let entry = QuarantineEntry(test: test, lane: lane, reason: reason, until: until)
    let existing = file.entries.firstIndex { $0.test == test && $0.lane == lane }
    if let existing { file.entries[existing] = entry } else { file.entries.append(entry) }
    try write(file, root: request.root)
    return .added(entry, replaced: existing != nil)
  case .remove(let test, let lane):
    try knownLane(lane, in: lanes)
    guard let index = file.entries.firstIndex(where: { $0.test == test && $0.lane == lane }) else {
      let what = QuarantineEntry(test: test, lane: lane, reason: "", until: today).label
      throw CommandFailure(message: "duet quarantine: error: \(QuarantineFile.defaultPath) has no entry for \(what)", code: ExitCode.failed)
    }
    let entry = file.entries.remove(at: index)
    try write(file, root: request.root)
    return .removed(entry)
  }
}

private func knownLane(_ lane: String, in lanes: Set<String>) throws {
  guard lanes.contains(lane) else {
    throw UsageError(message: "unknown lane '\(ControlText.shown(lane))'\(Suggestion.hint(for: lane, in: lanes.sorted()))", command: "quarantine")
  }
}

private func write(_ file: QuarantineFile, root: URL) throws {
  do { try file.write(root: root) } catch {
    throw CommandFailure(message: "duet quarantine: error: cannot write \(QuarantineFile.defaultPath): \(error)", code: ExitCode.failed)
  }
}
