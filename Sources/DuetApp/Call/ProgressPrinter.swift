import Foundation
import DuetCommandLine
import DuetSupport

/// Progress: one line per finished lane; on a terminal also a live status line
/// of what is running, rewritten in place. Where lines cannot be rewritten (a
/// CI log, a pipe), a `still running` line every `heartbeat` seconds while a
/// lane runs, so a 75 s lane does not look like a hung job.
final class ProgressPrinter: Sendable {
  /// What changes as lanes start and finish. The lock is held while a line is
  /// written, so the status line is cleared and redrawn around it in one piece.
  private struct State {
    /// The lanes of the run under way (each run of `--watch` starts again).
    var total = 0
    var running: [String: Date] = [:]
    var finished = 0
    var statusShown = false
    /// The columns the status line took when drawn: on a terminal made narrower
    /// since, it now wraps over several rows, and all of them must go.
    var statusColumns = 0
    /// The run's clock; nil once the run ended, when a tick under way draws nothing.
    var timer: Ticker?
  }

  private let console: Console
  private let quiet: Bool
  private let heartbeat: Double
  private let state = Locked(State())
  private let signals: SignalPolicy?

  /// `signals`: the process's; on a terminal, its SIGWINCH wakes the clock to
  /// redraw the status line at the new width at once (the drawing happens on
  /// the clock's thread, never the signal thread, which a blocked terminal must not hold).
  init(console: Console, quiet: Bool, heartbeat: Double = 60, signals: SignalPolicy? = nil) {
    self.console = console
    self.quiet = quiet
    self.heartbeat = heartbeat
    self.signals = signals
  }

  /// A run of `total` lanes starts: the count from zero, and its clock.
  func start(total: Int) {
    guard !quiet else { return }
    let rewrite = console.canRewrite
    let timer = Ticker(interval: rewrite ? 0.25 : heartbeat) { [weak self] in self?.draw(.tick) }
    state.withLock { $0 = State(total: total, timer: timer) }
    if rewrite, let timer { signals?.redrawOnResize { timer.fire() } }
  }

  func handle(_ update: ProgressUpdate) { handle { _ in update } }

  /// Shows the update made from the run's lane count (`ProgressUpdate(event, total:)`).
  func handle(_ update: @escaping (_ total: Int) -> ProgressUpdate) { draw(.update(update)) }

  /// A `--stream` line, to stdout; under `--json` (`quiet`) to stderr, as the
  /// notices go, so a lane's own output never lands in the report on stdout.
  func streamed(_ lane: String, _ line: String) {
    let text: TerminalLine = "\(lane) | \(line, in: .laneOutput)"
    guard !quiet else { return console.err(text) }
    draw(.line(text))
  }

  /// The run ended: the status line goes, and its clock stops.
  func finish() {
    let timer = state.withLock { state in
      clearStatus(&state)
      defer { state.timer = nil }
      return state.timer
    }
    timer?.cancel()
  }

  /// What the printer writes while a run goes, from whichever thread tells it:
  /// a lane's update, a `--stream` line, a tick of its clock.
  private enum Drawing {
    case update((_ total: Int) -> ProgressUpdate)
    case line(TerminalLine)
    case tick
  }

  /// Writes it with the status line cleared and drawn again around it, holding the lock throughout.
  private func draw(_ drawing: Drawing) {
    guard !quiet else { return }
    state.withLock { state in
      switch drawing {
      case .update(let made):
        show(made(state.total), &state)
      case .line(let text):
        clearStatus(&state)
        console.out(text)
        drawStatus(&state)
      case .tick:
        tick(&state)
      }
    }
  }

  private func show(_ update: ProgressUpdate, _ state: inout State) {
    switch update {
    case .started(let name):
      state.running[name] = Date()
    case .retrying(let line, let code):
      clearStatus(&state)
      console.out(line, paint: code)
    case .finished(let name, let count, let line, let code):
      state.running[name] = nil
      state.finished = count
      clearStatus(&state)
      console.out(line, paint: code)
      drawStatus(&state)
    }
  }

  /// The clock's tick: on a terminal the status line drawn again (its times
  /// move); elsewhere `[2/9] still running: kotlin 1m00s, swift 12.0s`, one
  /// line in the log. Nothing once the run ended.
  private func tick(_ state: inout State) {
    guard state.timer != nil else { return }
    if console.canRewrite {
      clearStatus(&state)
      drawStatus(&state)
      return
    }
    guard !state.running.isEmpty else { return }
    let now = Date()
    let names = state.running.sorted { $0.value < $1.value }.map { "\($0.key) \(DurationText.format(now.timeIntervalSince($0.value)))" }
    console.out("\(ProgressPrinter.statusText(finished: state.finished, total: state.total, running: names, width: console.width, verb: "still running"))")
  }

  private func drawStatus(_ state: inout State) {
    guard console.canRewrite, !quiet, !state.running.isEmpty else { return }
    let now = Date()
    let names = state.running.sorted { $0.value < $1.value }.map { "\($0.key) \(DurationText.format(now.timeIntervalSince($0.value)))" }
    // The width now, not at the start: the terminal may have been resized (SIGWINCH).
    let width = console.currentWidth()
    let text = ProgressPrinter.statusText(finished: state.finished, total: state.total, running: names, width: width)
    console.raw(console.paint(text, "2"))
    state.statusShown = true
    state.statusColumns = text.count
  }

  private func clearStatus(_ state: inout State) {
    guard state.statusShown else { return }
    console.raw(ProgressPrinter.clearing(columns: state.statusColumns, width: console.currentWidth()))
    state.statusShown = false
  }

  /// `[2/9] running: kotlin 12s, swift 3.1s, +2 more`: as many running lanes as
  /// fit in `width - 1` columns, and how many more there are; cut with `…`
  /// only when not even one fits.
  static func statusText(finished: Int, total: Int, running names: [String], width: Int, verb: String = "running") -> String {
    let head = "[\(finished)/\(total)] \(verb): "
    var shown = names.count
    func text(_ count: Int) -> String {
      head + names.prefix(count).joined(separator: ", ") + (count < names.count ? (count > 0 ? ", " : "") + "+\(names.count - count) more" : "")
    }
    while shown > 1 && text(shown).count > width - 1 { shown -= 1 }
    let line = text(shown)
    return line.count > width - 1 ? String(line.prefix(max(1, width - 2))) + "…" : line
  }

  /// What erases a status line of `columns` characters on a terminal now
  /// `width` wide: back to its first row (a line drawn wider than the terminal
  /// has since become wraps), then everything below.
  static func clearing(columns: Int, width: Int) -> String {
    let rows = width > 0 && columns > 0 ? (columns - 1) / width : 0
    return rows > 0 ? "\r\u{1B}[\(rows)A\u{1B}[J" : "\r\u{1B}[K"
  }
}
