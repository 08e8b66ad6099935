import Foundation

/// The tree's git state, read at most once for a run: reading it hashes every
/// untracked file, so a verify that fingerprints the tree twice (again after a
/// cache restore) asks git once, and a run whose lanes all have inputs never
/// asks. The one memo of it: the fingerprint and the session share this value.
package final class GitStateOnce {
  private let read: () -> GitState?
  private var answer: GitState??

  /// `read` is called on the first `value`, never again.
  init(_ read: @escaping () -> GitState?) {
    self.read = read
  }

  /// The tree's `GitState` as `GitState.read` gives it, read once.
  package convenience init(root: URL, environment: [String: String]) {
    self.init { GitState.read(root: root, environment: environment) }
  }

  /// The state; nil where the tree is not a git work tree (or git is missing).
  package var value: GitState? {
    if let answer { return answer }
    let state = read()
    answer = .some(state)
    return state
  }

  /// Whether it was asked (even without an answer).
  package var asked: Bool { answer != nil }
}
