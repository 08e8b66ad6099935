import Foundation
import Testing

/// Issue 42, item 8: tests wait for the event itself (a line printed, a file
/// written, a pid gone) through `eventually`, not for a fixed time, which on a
/// loaded two-core CI is either too short or wasted. A sleep is left only where
/// time passing is the point, and says so in a comment on the line before.
@Suite("Tests wait on events, not on the clock")
struct TestSleepTests {
  static let tests = LayerTests.repository.appendingPathComponent("Tests")
  static let limit = 5

  /// Every sleep call under `Tests/`, as `file:line`, with the line before it.
  static func sleeps() throws -> [(at: String, before: String)] {
    let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    var found: [(String, String)] = []
    let calls = ["Thread" + ".sleep(", "usleep" + "(", "Task" + ".sleep(", "sleep" + "(for"]
    for file in files.sorted() {
      let lines = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
      for (index, line) in lines.enumerated() {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//"), calls.contains(where: { code.contains($0) }) else { continue }
        found.append(("\(file):\(index + 1)", index > 0 ? lines[index - 1] : ""))
      }
    }
    return found
  }

  @Test func atMostFiveEachSayingWhy() throws {
    let sleeps = try Self.sleeps()
    #expect(sleeps.count <= Self.limit, "\(sleeps.count) sleeps: \(sleeps.map(\.at)); wait with eventually { ... } instead")
    for sleep in sleeps where sleep.at != "DuetFuzzSupport/Waiting.swift:12" {
      #expect(sleep.before.trimmingCharacters(in: .whitespaces).hasPrefix("// A sleep that is the point:"), "\(sleep.at) does not say why it sleeps")
    }
  }

  /// Issue 54, item 7: architecture.md's count of sleeps is the suite's (it said 1 where there were 2).
  @Test func theDocsCountIsTheSuites() throws {
    let besidesPoll = try Self.sleeps().filter { $0.at != "DuetFuzzSupport/Waiting.swift:12" }.count
    let architecture = try String(contentsOf: LayerTests.repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let said = "measured: \(besidesPoll) sleep\(besidesPoll == 1 ? "" : "s") under `Tests/`"
    #expect(architecture.split(separator: "\n").joined(separator: " ").replacingOccurrences(of: "  ", with: " ").contains(said),
            "docs/architecture.md does not say \"\(said)\"")
  }

  /// Issue 54: the shell the command-line tests hand duet (lane `sh:` scripts,
  /// fake tools, the edits a test makes) slept too, where `sleeps()` cannot
  /// see it: `sleep 0.3` "for the daemon to have written its pid" is a guess
  /// that a loaded two-core machine loses. A script waits for the event
  /// instead, in a poll loop (`while [ ! -e f ]; do sleep 0.01; done`,
  /// bounded by the lane's timeout); a sleep stays only where time passing is
  /// the point (a lane that must outlast a timeout, hold a pool, or run while
  /// something else happens), marked `A sleep that is the point:` on its line
  /// or the line before it (or before the run of sleeping lines it is in).
  static let scriptMarker = "A sleep that is the point:"

  /// Every timing sleep in the shell of `Tests/DuetCLITests`, as `file:line`, and whether it is marked.
  static func scriptSleeps() throws -> [(at: String, marked: Bool)] {
    let folder = tests.appendingPathComponent("DuetCLITests")
    let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
    var found: [(String, Bool)] = []
    for file in files.sorted() {
      let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
      // Whether the line sleeps for a time: a poll's interval, the sleep that
      // opens a loop's body (`do sleep 0.01`, or a line after one ending in
      // `do`), waits for an event and does not count.
      func sleeps(_ index: Int) -> Bool {
        let line = lines[index]
        guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { return false }
        let before = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
        let opensABody = before.hasSuffix("do") && line.trimmingCharacters(in: .whitespaces).hasPrefix("sleep")
        return line.matches(of: /(^|[^.\w]|\\n)(do +)?sleep +[0-9$]/).contains { $0.output.2 == nil } && !opensABody
      }
      for index in lines.indices where sleeps(index) {
        var above = index - 1
        while above >= 0 && sleeps(above) { above -= 1 }
        let marked = lines[index].contains(scriptMarker) || (above >= 0 && lines[above].contains(scriptMarker))
        found.append(("DuetCLITests/\(file):\(index + 1)", marked))
      }
    }
    return found
  }

  @Test func scriptsWaitForTheEventOrSayWhyTheySleep() throws {
    let unmarked = try Self.scriptSleeps().filter { !$0.marked }.map(\.at)
    #expect(unmarked == [], "wait for the event in a poll loop, or mark the sleep `\(Self.scriptMarker)`")
  }

  /// architecture.md's count of them is the suite's.
  @Test func theDocsCountOfScriptSleepsIsTheSuites() throws {
    let count = try Self.scriptSleeps().count
    let architecture = try String(contentsOf: LayerTests.repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let said = "measured: \(count) timing sleeps in the command-line tests' shell"
    #expect(architecture.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains(said),
            "docs/architecture.md does not say \"\(said)\"")
  }
}
