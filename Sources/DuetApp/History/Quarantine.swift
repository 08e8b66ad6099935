import DuetModel
import DuetOutput
import DuetRun
import DuetSupport
import DuetTestReports
import Foundation
import DuetHistory

/// `duet quarantine add|list|remove`: the reviewed file `lanes/quarantine.yaml`
/// of tests (and lanes) whose failures do not fail a run until a day.
struct QuarantineRequest: Sendable {
  enum Action: Sendable, Equatable {
    /// A test of a lane (nil: the whole lane), taken literally when `exact`,
    /// why, and through which day (nil: 30 days from today).
    case add(test: String?, exact: Bool = false, lane: String, reason: String, until: String?)
    case list
    case remove(test: String?, exact: Bool = false, lane: String)
    /// Flaky tests not yet quarantined, and quarantines ready to release.
    case suggest
  }

  var root: URL
  var action: Action
  /// The moment `add` writes as `added:`, and counts 30 days from, in UTC.
  var today: Date
  /// The invocation's environment: `DUET_HISTORY` says where the store is (`suggest`).
  var environment: [String: String]
  /// `suggest --below PCT`, as a fraction: a release needs the 95% interval
  /// of the test's failure rate to end below it.
  var releaseBelow: Double?

  init(root: URL, action: Action, environment: [String: String] = [:], today: Date = Date()) {
    self.root = root
    self.action = action
    self.environment = environment
    self.today = today
  }
}

enum QuarantineResponse: CommandResponse {
  /// With the warnings `add` gives about an entry it still writes (a day past, a pattern that takes every test).
  case added(QuarantineEntry, replaced: Bool, warnings: [TerminalLine])
  case listed([QuarantineEntry], today: QuarantineDate)
  case removed(QuarantineEntry)
  case noHistory(NoHistory)
  case suggested(QuarantineSuggestions)

  var exitCode: Int32 { ExitCode.pass }

  func printout(_ format: TextFormat) -> Printout {
    if case .noHistory(let none) = self { return none.printout(json: format.json) }
    var printout = Printout()
    // `add`'s warnings go to stderr, beside `--json` too.
    if case .added(_, _, let warnings) = self { for warning in warnings { printout.err("duet quarantine: warning: \(warning)") } }
    if format.json {
      printout.json(ReportJSON.text(QuarantineJSON(self)))
      return printout
    }
    let file = QuarantineFile.defaultPath
    switch self {
    case .noHistory: break
    case .suggested(let suggestions): return QuarantineResponse.printout(suggestions)
    case .added(let entry, let replaced, _):
      printout.out("duet quarantine: \(replaced ? "updated" : "added") \(entry.label) until \(entry.until) in \(file): \(entry.reason)")
    case .removed(let entry):
      printout.out("duet quarantine: removed \(entry.label) from \(file)")
    case .listed(let entries, let today):
      guard !entries.isEmpty else {
        printout.out("duet quarantine: nothing is quarantined (\(file))")
        return printout
      }
      printout.out("duet quarantine: \(entries.count) entr\(entries.count == 1 ? "y" : "ies") in \(file)")
      let rows = entries.map { entry -> [TerminalLine] in
        ["\(entry.lane)", "\(entry.test.map { $0 + (entry.exact ? " (exact name)" : "") } ?? "(whole lane)")", "\(entry.until)",
         entry.isActive(on: today) ? "active" : "expired", "\(entry.reason)"]
      }
      printout.table(TextTable(header: ["lane", "test", "until", "state", "reason"], rows: rows), width: format.width)
    }
    return printout
  }
}

/// `--json` of `duet quarantine`.
struct QuarantineJSON: Encodable {
  struct Entry: Encodable {
    var lane: String
    @Nullable var test: String?
    /// Present, and true, when `test` is one name taken literally (`*` and `?` included).
    var exact: Bool?
    var reason: String
    var until: String
    /// When `quarantine add` wrote it (`YYYY-MM-DDTHH:MM:SSZ`, or a day in older files); absent in older still.
    var added: String?
    var expired: Bool?
  }
  var command: String
  var entries: [Entry]
  /// With `suggest`: the flaky tests no entry covers (`entries` are those ready to release).
  var quarantine: [[String: String]]?

  init(_ response: QuarantineResponse) {
    func entry(_ e: QuarantineEntry, expired: Bool? = nil) -> Entry {
      Entry(lane: e.lane, test: e.test, exact: e.exact ? true : nil, reason: e.reason, until: e.until.description, added: e.added?.description,
            expired: expired)
    }
    switch response {
    case .added(let e, _, _): (command, entries) = ("add", [entry(e)])
    case .removed(let e): (command, entries) = ("remove", [entry(e)])
    case .listed(let list, let today): (command, entries) = ("list", list.map { entry($0, expired: !$0.isActive(on: today)) })
    case .noHistory: (command, entries) = ("suggest", [])
    case .suggested(let found):
      (command, entries) = ("suggest", found.entries.map { entry($0) })
      quarantine = found.tests.map { ["lane": $0.lane, "test": $0.test] }
    }
  }
}

/// Throws `ManifestError` for the tree's manifest, `QuarantineError` for the
/// file, `UsageError` for a lane, test or day the request gets wrong, and
/// `CommandFailure` for `remove` of an entry the file does not hold (exit 1)
/// or a file that would not read back (exit 2).
func quarantine(_ request: QuarantineRequest) throws -> QuarantineResponse {
  let manifest = try TreeManifest.load(root: request.root).manifest
  let lanes = Set(manifest.lanes.map(\.name))
  var file = try QuarantineFile.load(root: request.root, lanes: lanes)
  let today = QuarantineDate(request.today)
  switch request.action {
  case .list:
    return .listed(file.entries, today: today)
  case .suggest:
    return try suggest(request, entries: file.entries, today: today)
  case .add(let test, let exact, let lane, let reason, let untilText):
    try knownLane(lane, in: manifest)
    try checkTest(test, exact: exact)
    // Written again, an entry is added again: suggest counts its runs from now.
    let entry = QuarantineEntry(test: test, exact: exact, lane: lane, reason: reason, until: try day(untilText, today: today),
                                added: QuarantineMoment(request.today))
    guard !reason.allSatisfy(\.isWhitespace) else { throw UsageError(message: "--reason must not be empty", command: "quarantine") }
    let existing = file.entries.firstIndex { $0.isSameEntry(as: entry) }
    if let existing { file.entries[existing] = entry } else { file.entries.append(entry) }
    try write(file, root: request.root, lanes: lanes)
    return .added(entry, replaced: existing != nil, warnings: addWarnings(entry, today: today))
  case .remove(let test, let exact, let lane):
    try knownLane(lane, in: manifest)
    let wanted = QuarantineEntry(test: test, exact: exact, lane: lane, reason: "", until: today)
    guard let index = file.entries.firstIndex(where: { $0.isSameEntry(as: wanted) }) else {
      let other = file.entries.first { $0.lane == lane && $0.test == test && test != nil }
      let hint = other.map { $0.exact ? " (it has \($0.label): add --exact)" : " (it has \($0.label), a pattern: leave out --exact)" } ?? ""
      throw CommandFailure(message: "duet quarantine: error: \(QuarantineFile.defaultPath) has no entry for \(wanted.label)\(hint)", code: ExitCode.failed)
    }
    let entry = file.entries.remove(at: index)
    try write(file, root: request.root, lanes: lanes)
    return .removed(entry)
  }
}

/// A test name the file could not hold (empty or only blanks: the reader
/// refuses it, and with it every other entry), or `--exact` with no name.
private func checkTest(_ test: String?, exact: Bool) throws {
  if let test, test.allSatisfy(\.isWhitespace) {
    throw UsageError(message: "TEST must not be empty or blank (leave it out, with --lane, to quarantine the whole lane)", command: "quarantine")
  }
  if exact && test == nil { throw UsageError(message: "--exact needs a TEST, the one name to take literally", command: "quarantine") }
}

/// What `add` writes but a reviewer should hear about: an entry already past
/// its day counts for nothing, and a pattern that names no test takes them all.
private func addWarnings(_ entry: QuarantineEntry, today: QuarantineDate) -> [TerminalLine] {
  var warnings: [TerminalLine] = []
  if !entry.isActive(on: today) {
    warnings.append("--until \(entry.until) is already past: the entry counts for nothing, and verify warns about it")
  }
  if entry.matchesEveryTest, let test = entry.test {
    warnings.append("'\(test)' matches every test of lane '\(entry.lane)', so any test failing there passes; "
                    + "to mean the whole lane leave TEST out, to mean one test so named add --exact")
  }
  return warnings
}

/// `--until`, or 30 days from today.
private func day(_ text: String?, today: QuarantineDate) throws -> QuarantineDate {
  guard let text else { return today.adding(days: QuarantineFile.defaultDays) }
  return try untilDay(text)
}

/// `--until YYYY-MM-DD` as a day, or the usage error the command line's parse
/// gives (`QuarantineCommand.until`) and this call gives a caller that skipped it.
func untilDay(_ text: String) throws(UsageError) -> QuarantineDate {
  guard let day = QuarantineDate(text) else {
    throw UsageError(message: "--until needs a real date written YYYY-MM-DD, got '\(text)'", command: "quarantine")
  }
  return day
}

/// `suggest`: the flaky tests of the history's last 500 runs no entry covers, and
/// the entries whose tests passed their last runs in a row.
private func suggest(_ request: QuarantineRequest, entries: [QuarantineEntry], today: QuarantineDate) throws -> QuarantineResponse {
  switch try HistoryAccess.openForReading(root: request.root, environment: request.environment, command: "quarantine") {
  case .none(let none): return .noHistory(none)
  case .store(let store):
    let now = request.today.timeIntervalSince1970
    let flaky = try TestFlakyReport.compute(store: store, last: 500, since: nil, now: now).flaky
    // An entry's passes count from the moment it was added, one scan per such moment.
    var since: [QuarantineMoment: [String: [String: Int]]] = [:]
    for moment in Set(entries.compactMap(\.added)) { since[moment] = try store.testPassStreaks(last: 500, since: moment.start) }
    return .suggested(QuarantineSuggestions.suggest(flaky: flaky, entries: entries, streaks: try store.testPassStreaks(last: 500),
                                                    since: since, today: today, below: request.releaseBelow))
  }
}

extension QuarantineResponse {
  /// `suggest` in words: one line per test, the command that quarantines it under it.
  static func printout(_ found: QuarantineSuggestions) -> Printout {
    var printout = Printout()
    found.lines.forEach { printout.out($0) }
    return printout
  }
}

/// The command line's `--lane` is checked before (`KnownLanes`); a request
/// made elsewhere is checked here, in the same words, before the file is written.
private func knownLane(_ lane: String, in manifest: Manifest) throws {
  let names = manifest.lanes.map(\.name)
  guard names.contains(lane) else {
    throw UsageError(message: LaneSelector.unknown(lane, origin: "--lane", glob: false, manifestPath: manifest.path, names: names),
                     command: "quarantine")
  }
}

/// Writes the file only once it reads back as written (`QuarantineFile.checkedText`).
private func write(_ file: QuarantineFile, root: URL, lanes: Set<String>) throws {
  do { try file.write(root: root, lanes: lanes) } catch let error as QuarantineError {
    throw CommandFailure(message: "duet quarantine: error: nothing written: \(QuarantineFile.defaultPath) would not read back:\n\(error)", code: ExitCode.usage)
  } catch {
    throw CommandFailure(message: "duet quarantine: error: cannot write \(QuarantineFile.defaultPath): \(error)", code: ExitCode.failed)
  }
}
