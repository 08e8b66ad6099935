import Testing
@testable import DuetApp
@testable import DuetSupport
@testable import DuetTokens

/// Issue 42, item 4: `duet design-tokens` prints one line per file whatever
/// the file's name holds. A generated or orphaned file's path is tree text (a
/// config entry, a name found in a target's folder), so a line break in it
/// must not start a line of its own (a forged `::error`), nor an escape act on
/// the terminal.
@Suite("design-tokens report lines")
struct TokenReportLineTests {
  static let forged = "Gen/a\n::error::forged.swift"
  static let retitle = "Gen/b\u{1B}]0;title\u{07}.kt"

  static let report = TokenReport(mode: .check, configPath: "parity/design-tokens.yaml", entries: [
    .init(path: forged, status: .missing),
    .init(path: retitle, status: .orphaned),
  ])

  @Test func aPathWithALineBreakStaysOnItsLine() {
    let text = DesignTokensResponse(outcome: .report(Self.report)).printout(TextFormat()).outText
    #expect(text == """
      duet design-tokens --check: FAIL
        missing: Gen/a\\n::error::forged.swift
        orphaned: Gen/b\\u{1B}]0;title\\u{7}.kt — the config no longer declares it (a target owns this file)
      regenerate and commit: duet design-tokens

      """)
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix("::") })
  }

  /// The built-in lane logs the same lines, so its log reads as the command would.
  @Test func theLaneLogsTheSameLines() {
    let written = TokenReport(mode: .write, configPath: "parity/design-tokens.yaml", entries: [.init(path: Self.forged, status: .written)])
    #expect(written.text.text == "duet design-tokens: wrote 1 token file(s):\n  Gen/a\\n::error::forged.swift\nreview and commit the diff (generated token sources are committed build products)")
    #expect(DesignTokens.Outcome.report(Self.report).text.text.split(separator: "\n").count == 4)
  }
}
