import Foundation
import Testing

/// Issue 54, item 11: text the terminal shows is a `TerminalLine`, which
/// escapes what goes into it as it is made, so a call site does not escape by
/// hand. The calls of `ControlText.shown` that are left make a `String` that
/// is not yet a terminal line: the warnings and errors of the layers below
/// DuetApp (the cache's refusals, the history store's errors, the run's
/// notes), which a `CommandFailure`'s lines, a JSON report or a lane's log
/// carry as a `String` (issue 54, item 11 (b) is not finished: 95 calls at its
/// start, 82 now). The ceiling keeps new code from adding one: new warnings are
/// made as `TerminalLine`s (`"cannot read \(path)"`), and this number only goes down.
@Suite("Text is escaped as it is made, not by hand")
struct ControlTextCallsTests {
  static let ceiling = 82

  /// The calls of `ControlText.shown` in `Sources/`, outside doc comments, by file.
  static func calls() throws -> [String: Int] {
    let sources = LayerTests.sources
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    var found: [String: Int] = [:]
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
        let count = line.components(separatedBy: "ControlText.shown").count - 1
        if count > 0 { found[file, default: 0] += count }
      }
    }
    return found
  }

  @Test func theHandMadeEscapesDoNotGrow() throws {
    let calls = try Self.calls()
    let total = calls.values.reduce(0, +)
    #expect(total > 0, "the scan found none: is Sources/ there?")
    #expect(total <= Self.ceiling, "\(total) calls of ControlText.shown (ceiling \(Self.ceiling)): make a TerminalLine instead; \(calls.sorted { $0.key < $1.key })")
  }

  /// DuetApp's command lines and warnings are terminal lines: flaky, explain
  /// and quarantine quote tree and user text without escaping it by hand.
  @Test func theCommandsLinesEscapeAsTheyAreMade() throws {
    let calls = try Self.calls()
    for file in ["DuetApp/History/Flaky.swift", "DuetApp/History/Explain.swift", "DuetApp/History/Quarantine.swift"] {
      #expect(calls[file] == nil, "\(file) escapes by hand: \(calls[file] ?? 0)")
    }
  }
}
