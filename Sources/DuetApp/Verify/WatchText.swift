import DuetSupport
import Foundation

/// What `duet verify --watch` says between runs, as printouts: each run's
/// report as verify prints it, the change and the lanes it runs, the files a
/// run changed, the wait, and the end.
extension WatchObserver {
  static let prefix: TerminalLine = "duet verify --watch:"

  /// The observer that renders the watch for a console `width` wide and hands each printout to `say`.
  static func printing(_ request: VerifyRequest, width: Int, say: @escaping @Sendable (Printout) -> Void) -> WatchObserver {
    WatchObserver(
      ran: { response in say(response.printout(TextFormat(width: width), request: request)) },
      changed: { files, lanes in say(changed(files, lanes)) },
      changedDuringRun: { files in
        say(.line("\(prefix) changed during the run (not run again, a lane may have written them): \(shown(files))"))
      },
      waiting: { say(.line("\(prefix) watching \(request.root.path) for changes (Ctrl-C to stop)")) },
      failed: { error in say(failure(error)) },
      stillFailing: { lanes in
        let listed = lanes.map { "\($0.name) (\($0.outcome))" as TerminalLine }.joined(separator: ", ")
        say(.line("\(prefix) FAIL: the tree does not pass: \(lanes.count) lane(s) still failing from an earlier run: \(listed)"))
      },
      noticed: { notice in say(.line(line(notice))) })
  }

  /// One line for what the watcher did when events alone would have lost the tree.
  static func line(_ notice: WatchNotice) -> TerminalLine {
    switch notice {
    case .overflow:
      return "\(prefix) the kernel's queue of file events overflowed; rescanned the tree"
    case .rootGone(let root):
      return "\(prefix) the tree's folder \(root) is gone (removed or moved away); waiting for it to come back"
    case .rootBack(let root):
      return "\(prefix) the tree's folder \(root) is back; rescanned it and watching it again"
    case .scanning(let folders, let reason):
      return "\(prefix) cannot watch \(shown(folders)): \(reason); rescanned the tree, and scanning "
        + (folders.count == 1 ? "that folder" : "those folders") + " every second instead"
    }
  }

  /// Why a run could not start: a file's diagnostics as they are
  /// (`lanes/manifest.yaml:3:5: error: ...`, or `error: cannot read ...`,
  /// which already say "error"), anything else after the watch's prefix.
  static func failure(_ error: any Error) -> Printout {
    guard let diagnostics = (error as? any DiagnosticError)?.diagnostics, !diagnostics.isEmpty else {
      return .errorLine("\(prefix) error: \(String(describing: error))")
    }
    var printout = Printout()
    for diagnostic in diagnostics { printout.err("\(prefix) \(diagnostic)") }
    return printout
  }

  /// The watch ended on a signal.
  static let stopped = Printout.line("\(prefix) stopped")

  static func changed(_ files: [String], _ lanes: [(name: String, reason: String)]) -> Printout {
    var printout = Printout()
    printout.out("")
    printout.out("\(prefix) changed: \(shown(files))")
    if lanes.isEmpty { printout.out("  no lane is affected; nothing to run") }
    // Lane names and the changed paths in a reason come from the tree: escaped, as every other line of the watch.
    let names = lanes.map { "\($0.name)" as TerminalLine }
    let width = names.map(\.text.count).max() ?? 0
    for (name, lane) in zip(names, lanes) {
      printout.out("  \(name)\(String(repeating: " ", count: width - name.text.count))  runs: \(lane.reason)")
    }
    return printout
  }

  /// At most five paths (as the terminal may show them), then how many more.
  static func shown(_ files: [String]) -> TerminalLine {
    files.prefix(5).map { "\($0)" as TerminalLine }.joined(separator: ", ") + (files.count > 5 ? " and \(files.count - 5) more" : "")
  }
}

/// The files of the last change that ran nothing: the same again says nothing
/// (neither the change nor the wait after it), so output written into the tree
/// (`> log` inside it) cannot keep the watch talking. The watch loop's own,
/// kept on its thread.
struct QuietRepeats {
  private var files: [String] = []
  /// The last change repeated one that ran nothing.
  private(set) var silent = false

  /// Tells `observer` of the change, unless it repeats one that ran nothing.
  mutating func changed(_ files: [String], _ lanes: [(name: String, reason: String)], tell observer: WatchObserver) {
    silent = lanes.isEmpty && self.files == files
    self.files = lanes.isEmpty ? files : []
    if !silent { observer.changed(files, lanes) }
  }
}
