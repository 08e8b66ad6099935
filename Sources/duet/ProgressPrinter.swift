import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// Progress: one line per finished lane; on a terminal also a live status line
/// of what is running, rewritten in place.
final class ProgressPrinter: Sendable {
  /// What changes as lanes start and finish. The lock is held while a line is
  /// written, so the status line is cleared and redrawn around it in one piece.
  private struct State {
    var running: [String: Date] = [:]
    var finished = 0
    var statusShown = false
    var timer: (any DispatchSourceTimer)?
  }

  private let console: Console
  private let quiet: Bool
  private let total: Int
  private let state = Locked(State())

  init(console: Console, quiet: Bool, total: Int) {
    self.console = console
    self.quiet = quiet
    self.total = total
    if console.canRewrite && !quiet {
      let timer = DispatchSource.makeTimerSource(queue: .global())
      timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
      timer.setEventHandler { [weak self] in self?.redraw() }
      timer.resume()
      state.withLock { $0.timer = timer }
    }
  }

  func handle(_ event: RunEvent) {
    guard !quiet else { return }
    state.withLock { state in
      switch event {
      case .started(_, let name, _):
        state.running[name] = Date()
      case .retrying(_, let name, let failed):
        clearStatus(&state)
        let how = failed.outcome == .timeout ? "timed out" : RunReport.endText(failed)
        console.out(console.paint("      ↻ \(name): attempt \(failed.attempt) \(how); retrying", "33"))
      case .finished(let record, let count, _):
        state.running[record.name] = nil
        state.finished = count
        clearStatus(&state)
        console.out(paintedLine(record, finished: count))
        drawStatus(&state)
      }
    }
  }

  private func paintedLine(_ record: LaneRecord, finished count: Int) -> String {
    let line = RunReport.progressLine(record, finished: count, total: total)
    switch record.outcome {
    case .pass, .cached: return console.paint(line, "32")
    case .flaky: return console.paint(line, "33")
    case .fail, .timeout, .interrupted: return console.paint(line, "31")
    case .skipped, .cancelled, .unaffected: return console.paint(line, "2")
    }
  }

  func streamed(_ lane: String, _ line: String) {
    state.withLock { state in
      clearStatus(&state)
      console.out("\(lane) | \(line)")
      drawStatus(&state)
    }
  }

  func finish() {
    state.withLock { $0.timer }?.cancel()
    state.withLock { clearStatus(&$0) }
  }

  private func redraw() {
    state.withLock { state in
      clearStatus(&state)
      drawStatus(&state)
    }
  }

  private func drawStatus(_ state: inout State) {
    guard console.canRewrite, !quiet, !state.running.isEmpty else { return }
    let now = Date()
    let names = state.running.sorted { $0.value < $1.value }.map { "\($0.key) \(DurationText.format(now.timeIntervalSince($0.value)))" }
    var text = "[\(state.finished)/\(total)] running: " + names.joined(separator: ", ")
    if text.count > console.width - 1 { text = String(text.prefix(console.width - 2)) + "…" }
    console.raw(console.paint(text, "2"))
    state.statusShown = true
  }

  private func clearStatus(_ state: inout State) {
    guard state.statusShown else { return }
    console.raw("\r\u{1B}[K")
    state.statusShown = false
  }
}
