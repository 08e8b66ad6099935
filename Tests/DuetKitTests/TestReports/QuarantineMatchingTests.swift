import Foundation
import Testing
@testable import DuetTestReports
@testable import DuetSupport

/// Issue 50: the quarantine's test entries are compiled once per lane (exact
/// names hashed, globs found by their literal prefix), and the compiled rule
/// answers every failed attempt exactly as matching each case against each
/// entry does.
struct QuarantineMatchingTests {
  /// A small generator with a fixed seed, so a failure names its case again.
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// The rule as it was before it was compiled: every case against every entry in date.
  static func reference(_ entries: [QuarantineEntry], today: QuarantineDate, lane: String, cases: [TestCaseResult]) -> QuarantineExcuse? {
    let active = entries.filter { $0.lane == lane && $0.isActive(on: today) }
    if let whole = active.filter(\.isLaneLevel).max(by: { $0.until < $1.until }) { return .lane(until: whole.until) }
    let failed = cases.filter(\.outcome.failed).map(\.fullName)
    guard !failed.isEmpty else { return nil }
    let tests = active.filter { !$0.isLaneLevel }
    guard failed.allSatisfy({ name in tests.contains { $0.matches(test: name) } }) else { return nil }
    return .tests(failed)
  }

  /// Pieces names and patterns are made of: dots, the globs, a name `.git`
  /// (which a wildcard never takes), a combining accent and the letter it
  /// composes with (equal as Swift strings, not as scalars), a control.
  static let pieces = ["a", "b", "ab", ".", "*", "?", "T", ".git", "e\u{301}", "\u{E9}", "\n", "[", "x*y", ""]

  static func text(_ rng: inout Seeded, _ alphabet: [String], count: Int) -> String {
    (0..<count).map { _ in alphabet.randomElement(using: &rng)! }.joined()
  }

  /// Thousands of random entries and attempts: globs, exact names (`*` and
  /// `?` literal), lane-level and expired entries, names equal only under
  /// Unicode equivalence, `.git`: the compiled rule and the reference agree on each.
  @Test func theCompiledRuleAnswersAsEveryEntryWould() {
    var rng = Seeded(state: 50)
    let today = QuarantineDate("2026-12-05")!
    let days = [QuarantineDate("2026-12-04")!, today, QuarantineDate("2027-01-01")!]
    let names = Self.pieces.filter { !$0.contains("*") && !$0.contains("?") }
    for round in 0..<400 {
      var entries: [QuarantineEntry] = []
      for _ in 0..<Int.random(in: 0...8, using: &rng) {
        let laneLevel = Int.random(in: 0..<12, using: &rng) == 0
        let test = laneLevel ? nil : Self.text(&rng, Self.pieces, count: Int.random(in: 1...4, using: &rng))
        entries.append(QuarantineEntry(test: test, exact: Bool.random(using: &rng), lane: ["unit", "ui"].randomElement(using: &rng)!,
                                       reason: "r", until: days.randomElement(using: &rng)!))
      }
      let rule = QuarantineRule(entries: entries, today: today)
      for _ in 0..<10 {
        let cases = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
          TestCaseResult(suite: Bool.random(using: &rng) ? "" : Self.text(&rng, names, count: 2),
                         name: Self.text(&rng, Self.pieces, count: Int.random(in: 1...3, using: &rng)),
                         outcome: Bool.random(using: &rng) ? .fail : .pass, duration: 0)
        }
        for lane in ["unit", "ui"] {
          let expected = Self.reference(entries, today: today, lane: lane, cases: cases)
          #expect(rule.excuse(lane: lane, cases: cases) == expected, "round \(round): \(entries.map { ($0.test, $0.exact, $0.lane) }) \(cases.map(\.fullName))")
        }
      }
    }
  }

  /// The cases of the shapes the matcher takes apart, each against the entry rule itself.
  @Test func theMatcherAgreesOnEachShape() {
    let entries = [
      QuarantineEntry(test: "app.CartTest.*", lane: "unit", reason: "r", until: QuarantineDate("2099-01-01")!),
      QuarantineEntry(test: "*Flaky", lane: "unit", reason: "r", until: QuarantineDate("2099-01-01")!),
      QuarantineEntry(test: "app.sums[a*b]", exact: true, lane: "unit", reason: "r", until: QuarantineDate("2099-01-01")!),
      QuarantineEntry(test: "app.caf\u{E9}", lane: "unit", reason: "r", until: QuarantineDate("2099-01-01")!),
      QuarantineEntry(test: "app.T.?", lane: "unit", reason: "r", until: QuarantineDate("2099-01-01")!),
      QuarantineEntry(test: "app.x*", lane: "unit", reason: "r", until: QuarantineDate("2099-01-01")!),
      QuarantineEntry(test: "app.\u{E9}*z", lane: "unit", reason: "r", until: QuarantineDate("2099-01-01")!),
    ]
    let matcher = QuarantineMatcher(entries)
    let names = ["app.CartTest.adds", "app.CartTest.", "app.CartTes", "x.OneFlaky", "Flaky", "app.sums[a*b]", "app.sums[aXb]",
                 "app.cafe\u{301}", "app.T.x", "app.T.xy", "app.T.", ".git", "app.T.\u{1B}", "app.T.\u{E9}", "app.T.e\u{301}",
                 "app.T.\u{1F600}", "app.x*y", "app.x*", "app.xy", "app.\u{E9}\u{E9}z", "app.\u{E9}\u{E8}", "app.e\u{301}z"]
    for name in names {
      #expect(matcher.matches(name) == entries.contains { $0.matches(test: name) }, "\(name)")
    }
    #expect(!matcher.matches("app.sums[aXb]"))
    #expect(matcher.matches("app.cafe\u{301}"))
    // One scalar for `?`, however many bytes; two for a letter and its accent.
    #expect(matcher.matches("app.T.\u{1F600}") && !matcher.matches("app.T.e\u{301}"))
    // `segmentMatches` takes a `*` facing a `*` of the name as that character, and so does the matcher.
    #expect(!matcher.matches("app.x*y") && matcher.matches("app.xy"))
  }

  /// 5,000 failed cases against 1,001 entries (a glob per suite and exact
  /// names, one glob that matches nothing) are all excused, each by the entry
  /// that names it. How fast is measured by tools/bench-tests (d), never here:
  /// a timed test on a loaded CI machine is a flaky test.
  @Test func manyCasesAgainstManyEntriesAreAllMatched() {
    let today = QuarantineDate("2026-12-05")!
    var entries = (0..<1_000).map { i in
      QuarantineEntry(test: i % 2 == 0 ? "com.example.Suite\(i).*" : "com.example.Suite\(i).case\(i)", lane: "unit", reason: "r", until: today)
    }
    entries.append(QuarantineEntry(test: "*.neverRuns", lane: "unit", reason: "r", until: today))
    let rule = QuarantineRule(entries: entries, today: today)
    let cases = (0..<5_000).map { i in
      let suite = (i * 7) % 1_000
      return TestCaseResult(suite: "com.example.Suite\(suite)", name: suite % 2 == 0 ? "case\(i)" : "case\(suite)", outcome: .fail, duration: 0)
    }
    #expect(rule.excuse(lane: "unit", cases: cases) == .tests(cases.map(\.fullName)))
    // One case no entry names: nothing is excused.
    let stray = cases + [TestCaseResult(suite: "com.example.Other", name: "case1", outcome: .fail, duration: 0)]
    #expect(rule.excuse(lane: "unit", cases: stray) == nil)
  }
}
