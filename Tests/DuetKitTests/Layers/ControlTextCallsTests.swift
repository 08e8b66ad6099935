import Foundation
import Testing

/// Issue 54, item 11 (c): text the terminal shows is a `TerminalLine`, which
/// escapes what goes into it as it is made, so a call site never escapes by
/// hand. The warnings, refusals and errors of the layers below DuetApp (the
/// cache's refusals and store errors, the remote's reasons, the history
/// store's errors, the run's notes and warnings) carry a `TerminalLine`, or are
/// built through one and hand its text on where a `String` must go on (a JSON
/// report, a lane's log). 95 hand-made calls of `ControlText.shown` at the
/// start of item 11, 82 at the start of (c), none now: the escaping itself
/// (`ControlText.swift`, `TerminalLine.swift`) calls `shown` by its short
/// name. A new call anywhere fails here, unless the file is named in
/// `allowed` with the reason it cannot make a `TerminalLine`.
@Suite("Text is escaped as it is made, not by hand")
struct ControlTextCallsTests {
  /// Files that may call `ControlText.shown` by hand, each with its reason.
  /// None today; a file added here says why a `TerminalLine` cannot serve.
  static let allowed: [String: String] = [:]

  /// The calls of `ControlText.shown` (or `name`) in `Sources/`, outside doc comments, by file.
  static func calls(of name: String = "ControlText.shown") throws -> [String: Int] {
    let sources = LayerTests.sources
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    var found: [String: Int] = [:]
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("///") {
        let count = line.components(separatedBy: name).count - 1
        if count > 0 { found[file, default: 0] += count }
      }
    }
    return found
  }

  /// No file outside `allowed` escapes by hand, and each allowed file still
  /// does (a stale reason goes).
  @Test func noCallSiteEscapesByHand() throws {
    let calls = try Self.calls()
    #expect(try Self.calls(of: "import ").count > 100, "the scan found too few files: is Sources/ there?")
    let unexpected = calls.filter { Self.allowed[$0.key] == nil }
    #expect(unexpected.isEmpty, "escaped by hand (make a TerminalLine instead: \"cannot read \\(path)\"): \(unexpected.sorted { $0.key < $1.key })")
    for file in Self.allowed.keys { #expect(calls[file] != nil, "\(file) is allowed but calls ControlText.shown no more: take it out of `allowed`") }
  }
}
