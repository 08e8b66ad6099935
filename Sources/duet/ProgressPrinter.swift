import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// Progress: one line per finished lane; on a terminal also a live status line
/// of what is running, rewritten in place.
final class ProgressPrinter: @unchecked Sendable {
  private let console: Console
  private let quiet: Bool
  private let total: Int
  private let lock = NSLock()
  private var running: [String: Date] = [:]
  private var finished = 0
  private var statusShown = false
  private var timer: (any DispatchSourceTimer)?

  init(console: Console, quiet: Bool, total: Int) {
    self.console = console
    self.quiet = quiet
    self.total = total
    if console.isTerminal && !quiet {
      let timer = DispatchSource.makeTimerSource(queue: .global())
      timer.schedule(deadline: .now() + 0.25, repeating: 0.25)
      timer.setEventHandler { [weak self] in self?.redraw() }
      timer.resume()
      self.timer = timer
    }
  }

  func handle(_ event: RunEvent) {
    guard !quiet else { return }
    lock.lock()
    defer { lock.unlock() }
    switch event {
    case .started(_, let name, _):
      running[name] = Date()
    case .retrying(_, let name, let failed):
      clearStatus()
      let how = failed.outcome == .timeout ? "timed out" : RunReport.endText(failed)
      console.out(console.paint("      ↻ \(name): attempt \(failed.attempt) \(how); retrying", "33"))
    case .finished(let record, let count, _):
      running[record.name] = nil
      finished = count
      clearStatus()
      var line = RunReport.progressLine(record, finished: count, total: total)
      switch record.outcome {
      case .pass, .cached: line = console.paint(line, "32")
      case .flaky: line = console.paint(line, "33")
      case .fail, .timeout, .interrupted: line = console.paint(line, "31")
      case .skipped, .cancelled, .unaffected: line = console.paint(line, "2")
      }
      console.out(line)
      drawStatus()
    }
  }

  func streamed(_ lane: String, _ line: String) {
    lock.lock()
    defer { lock.unlock() }
    clearStatus()
    console.out("\(lane) | \(line)")
    drawStatus()
  }

  func finish() {
    timer?.cancel()
    lock.lock()
    clearStatus()
    lock.unlock()
  }

  private func redraw() {
    lock.lock()
    defer { lock.unlock() }
    clearStatus()
    drawStatus()
  }

  private func drawStatus() {
    guard console.isTerminal, !quiet, !running.isEmpty else { return }
    let now = Date()
    let names = running.sorted { $0.value < $1.value }.map { "\($0.key) \(DurationText.format(now.timeIntervalSince($0.value)))" }
    var text = "[\(finished)/\(total)] running: " + names.joined(separator: ", ")
    if text.count > console.width - 1 { text = String(text.prefix(console.width - 2)) + "…" }
    console.raw(console.paint(text, "2"))
    statusShown = true
  }

  private func clearStatus() {
    guard statusShown else { return }
    console.raw("\r\u{1B}[K")
    statusShown = false
  }
}
