import DuetHooks
import DuetModel
import DuetProcess
import Foundation

/// Where `lanes/manifest.yaml` stands in git. A hook verifies a commit (the
/// pushed one, or HEAD with the index), not the work tree: a manifest that is
/// only on disk is not there, and every push or commit would stop with a bare
/// "cannot read" (issue 53, item 1). The hook and `hook install` say why instead.
enum ManifestInGit {
  case committed
  /// In the index, not in HEAD.
  case staged
  case untracked
  /// Not in the work tree either: nothing to say beyond verify's own error.
  case absent

  static func state(root: URL, environment: [String: String]) -> ManifestInGit {
    let path = Manifest.defaultPath
    guard FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) else { return .absent }
    if ProcessOutput.git(["cat-file", "-e", "HEAD:./" + path], in: root, environment: environment) != nil { return .committed }
    if ProcessOutput.git(["ls-files", "--error-unmatch", "--", path], in: root, environment: environment) != nil { return .staged }
    return .untracked
  }

  /// "(it is untracked here)", as the sentences below say it.
  var here: String {
    switch self {
    case .staged: return "it is staged here, not committed"
    case .untracked: return "it is untracked here"
    case .committed, .absent: return "it is in HEAD here"
    }
  }

  /// Why a hook's checkout has no manifest though the work tree does, and what to do; nil when that is not why.
  static func missingFromCheckout(_ checkout: URL, root: URL, kind: GitHook.Kind, environment: [String: String]) -> String? {
    guard !FileManager.default.fileExists(atPath: checkout.appendingPathComponent(Manifest.defaultPath).path) else { return nil }
    let state = state(root: root, environment: environment)
    guard state != .absent else { return nil }
    switch kind {
    case .prePush:
      return "\(Manifest.defaultPath) is not in the commit being pushed (\(state.here)): commit it, or push with --no-verify"
    case .preCommit:
      return "\(Manifest.defaultPath) is not in the commit being made (\(state.here)): git add \(Manifest.defaultPath), or commit with --no-verify"
    }
  }

  /// `hook install`'s warning when the hook it installs would stop at once: nil when the manifest is where the hook looks.
  static func installWarning(root: URL, kind: GitHook.Kind, environment: [String: String]) -> String? {
    let state = state(root: root, environment: environment)
    switch (kind, state) {
    case (_, .committed), (_, .absent), (.preCommit, .staged): return nil
    case (.prePush, _):
      return "\(Manifest.defaultPath) is not committed (\(state.here)); the hook verifies the pushed commit, so every push stops until it is: "
        + "git add lanes && git commit"
    case (.preCommit, _):
      return "\(Manifest.defaultPath) is not in git (\(state.here)); the hook verifies what is committed, so every commit stops until it is: "
        + "git add lanes"
    }
  }
}
