import Foundation
import Testing
@testable import DuetApp
@testable import DuetModel
@testable import DuetSupport

/// What the watch says when a run cannot start.
@Suite("The watch's words for a run that cannot start")
struct WatchTextTests {
  /// Issue 39, item 7: a manifest that cannot be read is said once as an
  /// error (`error: cannot read ...`), never `error: error: ...`; a diagnostic
  /// keeps its position; any other error gets the one `error:`.
  @Test func errorIsSaidOnce() {
    func lines(_ printout: Printout) -> [String] {
      printout.items.compactMap { if case .err(let text) = $0 { return text.text } else { return nil } }
    }
    let unreadable = ManifestError(diagnostics: [Diagnostic("cannot read lanes/manifest.yaml: Is a directory")])
    #expect(lines(WatchObserver.failure(unreadable)) == ["duet verify --watch: error: cannot read lanes/manifest.yaml: Is a directory"])
    let located = ManifestError(diagnostics: [Diagnostic("lane 'a': unknown key 'neds'", at: SourceLocation(file: "lanes/manifest.yaml", line: 5, column: 5))])
    #expect(lines(WatchObserver.failure(located)) == ["duet verify --watch: lanes/manifest.yaml:5:5: error: lane 'a': unknown key 'neds'"])
    #expect(lines(WatchObserver.failure(CocoaError(.fileReadUnknown))).first?.hasPrefix("duet verify --watch: error: ") == true)
  }
}
