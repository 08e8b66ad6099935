import DuetModel
import DuetProcess
import DuetSupport
import Foundation

/// What a shell completion offers for a word (`duet __complete`).
enum CompletionWords: String, Sendable, CaseIterable {
  case lanes, tags, refs
}

/// The words of `kind` in the tree at `root`, one a line; nil when there are
/// none to read (a broken manifest): a completion must never print noise.
func completionWords(_ kind: CompletionWords, root: URL, environment: [String: String]) -> [String]? {
  switch kind {
  case .refs: return ProcessOutput.gitRefs(in: root, environment: environment)
  case .lanes: return (try? TreeManifest.load(root: root).manifest)?.lanes.map(\.name)
  case .tags: return (try? TreeManifest.load(root: root).manifest).map { LaneSelector.allTags($0.lanes) }
  }
}
