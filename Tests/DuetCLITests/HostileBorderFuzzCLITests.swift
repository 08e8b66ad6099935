import Foundation
import Testing
@testable import DuetFuzzSupport

/// Issue 39's border rule, fuzzed: values from outside duet (numbers in a
/// store `history merge` is handed, text in the environment) are checked where
/// they enter. Seeded: a failure names its seed and case, and replays.
@Suite("Hostile values at the border: merged stores and the environment (seeded)")
struct HostileBorderFuzzCLITests {
  /// Numbers a store may hold where duet expects seconds, times and counts.
  static let numbers = ["1e300", "-1e300", "9e999", "-9e999", "-100", "-0.0", "0", "1e-320", "4.9e-324", "86400000",
                        "9223372036854775807", "-9223372036854775808", "18446744073709551616", "NULL", "'x'", "''", "X'00'"]

  func recordedTree() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n  - {name: b, sh: \"exit 1\", retries: 1, needs: [a]}\n  - {name: c, sh: \"true\"}\n")
    _ = try tree.duet("verify")
    _ = try tree.duet("verify")
    return tree
  }

  /// Each case sets random columns of a copy of a real store to random such
  /// values; `history merge` takes it whole or refuses it whole, naming why,
  /// and every reader of the merged store ends normally (no trap, no hang).
  @Test(arguments: [UInt64(0x39_08), 0x39_09, 0x39_0A])
  func mergedStoreValues(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let source = try recordedTree()
    let columns = ["steps.duration", "steps.started", "steps.attempt", "steps.exit_code", "runs.started", "runs.ended", "runs.jobs"]
    var tried = 0
    for number in 0..<4 {
      let store = source.url.appendingPathComponent("case-\(number).sqlite").path
      try FileManager.default.copyItem(atPath: source.url.appendingPathComponent(".duet/history.sqlite").path, toPath: store)
      var updates: [String] = []
      for _ in 0...random.below(2) {
        let column = random.pick(columns).split(separator: ".")
        // Rows chosen by their own values (steps is a WITHOUT ROWID table), so a case replays.
        let which = column[0] == "steps" ? "attempt % 2 = \(random.below(2))" : "length(id) % 2 = \(random.below(2))"
        updates.append("UPDATE \(column[0]) SET \(column[1]) = \(random.pick(Self.numbers)) WHERE \(which)")
      }
      let script = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); [c.execute(s) for s in sys.argv[2:]]; c.commit()"
      let poisoned = try shell("python3 -c \"\(script)\" '\(store)' " + updates.map { "\"\($0)\"" }.joined(separator: " "), in: source.url)
      guard poisoned.status == 0 else {
        // A constraint of the store refused the value: nothing to merge, and said so.
        #expect(poisoned.output.contains("constraint") || poisoned.output.contains("mismatch"), "seed \(seed) case \(number): \(poisoned.output)")
        continue
      }
      tried += 1
      let target = try recordedTree()
      let merged = try runBinary(["history", "merge", store], in: target.url, timeout: 30)
      let said = "seed \(seed) case \(number) \(updates): \(merged.stdout)\(merged.stderr)"
      #expect(merged.status == 0 || merged.status == 1, "\(said)")
      if merged.status == 1 { #expect(merged.stderr.contains("case-\(number).sqlite"), "\(said)") }
      for command in [["stats"], ["report"], ["report", "--html", "page.html"], ["trace"], ["flaky"], ["history"], ["verify", "--dry-run"]] {
        let run = try runBinary(command, in: target.url, timeout: 30)
        #expect(run.status == 0 || run.status == 1, "\(command) after \(said): \(run.status) \(run.stderr.suffix(400))")
        #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Crash"), "\(command) after \(said)")
      }
    }
    #expect(tried > 0, "seed \(seed): no case reached the merge")
  }

  /// Hostile text in the variables duet reads and prints (DUET_SKIP's lane
  /// names) reaches the terminal escaped: no ESC, no bare CR, and no line
  /// that starts a GitHub workflow command, under GitHub Actions too.
  @Test(arguments: [UInt64(0x39_10), 0x39_11])
  func environmentText(seed: UInt64) throws {
    var hostile = HostileStrings(seed: seed)
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    for number in 0..<12 {
      let text = hostile.next().replacingOccurrences(of: "\u{0}", with: "")
      let run = try tree.duet("verify", environment: ["DUET_SKIP": "a," + text, "GITHUB_ACTIONS": number % 2 == 0 ? "true" : "", "DUET_HISTORY": "off"])
      let output = run.stdout + run.stderr
      let said = "seed \(seed) case \(number) \(text.debugDescription): \(output.debugDescription)"
      #expect(!output.contains("\u{1B}") && !output.contains("\u{9B}"), "\(said)")
      #expect(!output.contains("\r"), "\(said)")
      #expect(!output.split(separator: "\n").contains { $0.hasPrefix("::") && !$0.hasPrefix("::group::") && !$0.hasPrefix("::endgroup::") && !$0.hasPrefix("::error title=duet") && !$0.hasPrefix("::warning title=duet") && !$0.hasPrefix("::stop-commands::") }, "\(said)")
    }
  }
}
