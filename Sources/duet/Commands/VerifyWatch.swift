import Foundation
import DuetApp
import DuetRun
import DuetSupport

/// `duet verify --watch`: the watch call of DuetApp, with what it tells printed
/// between runs, and the signals routed to it (Ctrl-C ends it, exit 130).
enum VerifyWatch {
  static func run(_ request: VerifyRequest, observer: VerifyObserver, arguments: ParsedArguments, console: Console) throws -> Int32 {
    let control = WatchControl()
    let prefix = "duet verify --watch:"
    // The files of the last change that ran nothing: the same again says nothing,
    // so output written into the tree (`> log` inside it) cannot keep it talking.
    let quiet = Locked<(files: [String], silent: Bool)>((files: [], silent: false))
    let watchObserver = WatchObserver(
      ran: { response in VerifyCommand.print(response, request: request, json: false, console: console) },
      changed: { files, lanes in
        let repeated = quiet.withLock { last in
          last.silent = lanes.isEmpty && last.files == files
          last.files = lanes.isEmpty ? files : []
          return last.silent
        }
        guard !repeated else { return }
        console.out("")
        console.out("\(prefix) changed: \(shown(files))")
        if lanes.isEmpty { console.out("  no lane is affected; nothing to run") }
        let width = lanes.map(\.name.count).max() ?? 0
        for lane in lanes { console.out("  " + lane.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  runs: " + lane.reason) }
      },
      changedDuringRun: { files in
        console.out("\(prefix) changed during the run (not run again, a lane may have written them): \(shown(files))")
      },
      waiting: {
        guard !quiet.withLock({ $0.silent }) else { return }
        console.out("\(prefix) watching \(request.root.path) for changes (Ctrl-C to stop)")
      },
      failed: { error in console.err("\(prefix) error: \(error)") })
    let code = try arguments.invocation.duringSignals({ _ in control.stop() }) {
      try watch(request, control: control, verifyObserver: observer, observer: watchObserver)
    }
    if control.isStopped { console.out("\(prefix) stopped") }
    return code
  }

  /// At most five paths, then how many more.
  static func shown(_ files: [String]) -> String {
    files.prefix(5).joined(separator: ", ") + (files.count > 5 ? " and \(files.count - 5) more" : "")
  }
}
