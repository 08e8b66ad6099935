import Foundation
import DuetCommandLine
import DuetSupport

/// Where a command's text goes: stdout for results, stderr for diagnostics.
/// Colour only on a terminal, and never when `NO_COLOR` is set, unless
/// `--color always|never` says otherwise. An in-process call writes into
/// buffers instead, and is never a terminal.
final class Console: Sendable {
  let isTerminal: Bool
  let useColor: Bool
  /// Whether a line may be rewritten in place (`\r`, `ESC[K`): a terminal that
  /// is not `TERM=dumb`, which has no cursor control.
  let canRewrite: Bool
  let width: Int
  private let output: ConsoleOutput

  init(environment: [String: String], output: ConsoleOutput = .standardStreams, color: ColorChoice = .auto) {
    self.output = output
    isTerminal = output.isStandardStreams && isatty(STDOUT_FILENO) == 1
    let noColor = environment[.noColor].map { !$0.isEmpty } ?? false
    // FORCE_COLOR or CLICOLOR_FORCE (set, not "0"): colour for a CI log that
    // renders it, though stdout is a pipe. NO_COLOR still wins.
    let forced = [EnvironmentVariable.forceColor, .clicolorForce].contains { environment[$0].map { !$0.isEmpty && $0 != "0" } ?? false }
    let streams = output.isStandardStreams
    switch color {
    case .always: useColor = true
    case .never: useColor = false
    case .auto: useColor = !noColor && ((isTerminal && environment[.term] != "dumb") || (forced && streams))
    }
    canRewrite = isTerminal && environment[.term] != "dumb"
    var size = winsize()
    if isTerminal && ioctl(STDOUT_FILENO, Console.windowSizeRequest, &size) == 0 && size.ws_col > 20 {
      width = Int(size.ws_col)
    } else {
      width = Int(environment[.columns] ?? "") ?? 100
    }
  }

  /// This console with colour as `--color` chose it: the same output and width.
  func choosing(_ color: ColorChoice, environment: [String: String]) -> Console {
    Console(environment: environment, output: output, color: color)
  }

  /// The terminal's width now (it may have been resized since the start:
  /// SIGWINCH), or `width` where there is no terminal to ask. A terminal made
  /// narrower than 21 columns is that narrow: the start's width there drew a
  /// status line that wrapped, and clearing it left its rows (issue 52, item 10).
  func currentWidth() -> Int {
    var size = winsize()
    guard isTerminal, ioctl(STDOUT_FILENO, Console.windowSizeRequest, &size) == 0, size.ws_col > 0 else { return width }
    return Int(size.ws_col)
  }

  /// TIOCGWINSZ; Darwin's is a macro Swift cannot import, so its value is spelled out.
  #if os(Linux)
  static let windowSizeRequest = UInt(TIOCGWINSZ)
  #else
  static let windowSizeRequest: UInt = 0x4008_7468
  #endif

  /// Lines to stdout and stderr: `TerminalLine`s, tree text in them escaped
  /// where it was put in, painted with an SGR code on a colour terminal.
  func out(_ line: TerminalLine, paint code: String? = nil) { out(code.map { paint(line.text, $0) } ?? line.text) }
  func err(_ line: TerminalLine) { err(line.text) }

  /// Several lines duet built as one String (help, an error that quotes
  /// diagnostics), each escaped (a no-op on duet's own words and shown text).
  func out(lines text: String) { for line in TerminalLine.lines(of: text) { out(line) } }
  func err(lines text: String) { for line in TerminalLine.lines(of: text) { err(line) } }

  /// As a last guard, any control left but `\n`, tab and duet's own colours
  /// is escaped here (`ControlText.terminal`).
  private func out(_ text: String) { write(ControlText.terminal(text) + "\n", to: STDOUT_FILENO) }
  /// Text duet generated whole (a script, the man page, the progress line's
  /// carriage return and erase), as it is.
  func raw(_ text: String) { write(text, to: STDOUT_FILENO) }
  private func err(_ text: String) { write(ControlText.terminal(text) + "\n", to: STDERR_FILENO) }

  /// Bytes as they are (a lane's log), to stdout.
  func bytes(_ data: Data) {
    output.write(data, error: false)
  }

  /// `file:line:col: error: message`, with `error` in red on a terminal.
  func diagnostics(_ items: [Diagnostic]) {
    for item in items {
      var text = item.description
      if useColor && isatty(STDERR_FILENO) == 1 { text = text.replacingOccurrences(of: ": error: ", with: ": \u{1B}[31merror:\u{1B}[0m ") }
      err(text)
    }
  }

  /// What a response says, written in order: lines to stdout (painted on a
  /// colour terminal) and stderr, generated text, bytes and diagnostics.
  func show(_ printout: Printout) {
    for item in printout.items {
      switch item {
      case .out(let line, let code): out(line, paint: code)
      case .err(let line): err(line)
      case .raw(let text): raw(text)
      case .bytes(let data): bytes(data)
      case .diagnostics(let list): diagnostics(list)
      }
    }
  }

  /// A response rendered for this console, written; its exit code.
  func show(_ response: some CommandResponse, json: Bool = false) -> Int32 {
    show(response.printout(TextFormat(width: width, json: json)))
    return response.exitCode
  }

  func paint(_ text: String, _ code: String) -> String {
    useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  private func write(_ text: String, to fd: Int32) {
    output.write(text.utf8, error: fd == STDERR_FILENO)
  }
}
