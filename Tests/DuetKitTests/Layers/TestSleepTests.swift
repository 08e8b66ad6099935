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
}
