import Foundation
import DuetCommandLine
import DuetSupport

/// `duet verify --watch`: the watch call of DuetApp, with what it tells printed
/// between runs, and the signals routed to it (Ctrl-C ends it, exit 130).
enum VerifyWatch {
  static func run(_ request: VerifyRequest, observer: VerifyObserver, invocation: Invocation, console: Console) throws -> Int32 {
    let control = WatchControl()
    let watchObserver = WatchObserver.printing(request, width: console.width, say: { console.show($0) })
    let code = try invocation.duringSignals({ control.stop() }) {
      // Where duet's own output goes, when that is a file (in the tree, it would wake the watch).
      let own = Set([STDOUT_FILENO, STDERR_FILENO].compactMap(FileWatcher.FileIdentity.of(descriptor:)))
      return try watch(request, control: control, verifyObserver: observer, observer: watchObserver, ownOutput: own)
    }
    if control.isStopped { console.show(WatchObserver.stopped) }
    return code
  }
}
