import DuetOutput
import DuetSupport
import Foundation

/// What a command's response says, in order, for the executable to write: every
/// response renders itself into one (`printout(_:)`), so the text a person reads
/// is decided here, beside the values, and the executable only writes it.
struct Printout: Sendable {
  /// One thing to write. `paint` is an SGR code (`"32;1"`) the console applies on a colour terminal.
  enum Item: Sendable, Equatable {
    /// A line to stdout: tree text in it escaped (`TerminalLine`).
    case out(TerminalLine, paint: String?)
    /// A line to stderr.
    case err(TerminalLine)
    /// Text duet generated whole (a script, a graph), to stdout as it is.
    case raw(String)
    /// Bytes as they are (a lane's log), to stdout.
    case bytes(Data)
    /// `file:line:col: error: message` lines, to stderr.
    case diagnostics([Diagnostic])
  }

  private(set) var items: [Item] = []

  init() {}

  /// One line to stdout, or to stderr: what a call says as it goes.
  static func line(_ text: TerminalLine) -> Printout {
    var printout = Printout()
    printout.out(text)
    return printout
  }

  static func errorLine(_ text: TerminalLine) -> Printout {
    var printout = Printout()
    printout.err(text)
    return printout
  }

  mutating func out(_ text: TerminalLine, paint: String? = nil) { items.append(.out(text, paint: paint)) }
  mutating func err(_ text: TerminalLine) { items.append(.err(text)) }
  /// JSON duet encoded whole, to stdout with its line break: every control a
  /// terminal acts on written as a JSON escape (`ReportJSON` has done so
  /// already; a trace's JSONEncoder text has not), so it stays valid JSON.
  mutating func json(_ text: String) { raw(ReportJSON.escapingSeparators(text) + "\n") }
  mutating func raw(_ text: String) { items.append(.raw(text)) }
  mutating func bytes(_ data: Data) { items.append(.bytes(data)) }
  mutating func diagnostics(_ list: [Diagnostic]) { if !list.isEmpty { items.append(.diagnostics(list)) } }
  mutating func append(_ other: Printout) { items += other.items }

  /// A table's lines, each indented by two spaces, as the list commands print them.
  mutating func table(_ table: TextTable, width: Int) {
    for line in table.lines(maxWidth: width) { out("  " + line) }
  }

  /// The stdout lines alone, as they read without colour: for tests and for a caller that wants the text.
  var outText: String {
    items.compactMap { item -> String? in
      switch item {
      case .out(let text, _): return text.text + "\n"
      case .raw(let text): return text
      case .bytes(let data): return String(decoding: data, as: UTF8.self)
      case .err, .diagnostics: return nil
      }
    }.joined()
  }

  /// The stderr lines alone.
  var errText: String {
    items.compactMap { item -> String? in
      switch item {
      case .err(let text): return text.text + "\n"
      case .diagnostics(let list): return list.map { $0.description + "\n" }.joined()
      default: return nil
      }
    }.joined()
  }
}

/// How a response is to be rendered: the terminal's width and whether `--json` was asked.
struct TextFormat: Sendable {
  var width: Int = 100
  var json: Bool = false
}

/// A command's answer: the exit code a CI job trusts and the text that goes with it.
protocol CommandResponse {
  var exitCode: Int32 { get }
  func printout(_ format: TextFormat) -> Printout
}
