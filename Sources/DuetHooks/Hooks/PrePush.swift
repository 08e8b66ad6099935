
/// What a pre-push hook verifies, from the lines git writes to its stdin
/// (`<local ref> <local sha> <remote ref> <remote sha>`): the change since the
/// remote's commit, or, for a new branch, since the remote's default branch.
/// Pure: git lookups come in as a closure.
package enum PrePush {
  package struct Update: Sendable, Equatable {
    var localRef: String
    package var localSHA: String
    var remoteRef: String
    var remoteSHA: String

    var isDeletion: Bool { PrePush.isZero(localSHA) }
    var isNewBranch: Bool { PrePush.isZero(remoteSHA) }
  }

  package enum Plan: Sendable, Equatable {
    /// Nothing to verify (only deletions, or nothing pushed).
    case nothing(String)
    /// Verify every lane, and why.
    case everything(String)
    /// `duet verify --since base`, and how the base was chosen.
    case since(String, String)
  }

  /// The lines git gave; malformed lines are left out.
  package static func parse(_ text: String) -> [Update] {
    text.split(whereSeparator: \.isNewline).compactMap { line in
      let words = line.split(separator: " ").map(String.init)
      guard words.count == 4 else { return nil }
      return Update(localRef: words[0], localSHA: words[1], remoteRef: words[2], remoteSHA: words[3])
    }
  }

  /// The plan for `updates` pushed to `remote`. `commitExists` says whether a
  /// name (a SHA or a ref) is a commit this repository has.
  package static func plan(_ updates: [Update], remote: String, commitExists: (String) -> Bool) -> Plan {
    let pushed = updates.filter { !$0.isDeletion }
    guard !pushed.isEmpty else {
      return .nothing(updates.isEmpty ? "nothing is being pushed" : "only deletions are being pushed")
    }
    var bases: [(base: String, how: String)] = []
    for update in pushed {
      if !update.isNewBranch {
        guard commitExists(update.remoteSHA) else {
          return .everything("\(remote)'s \(update.remoteRef) is at \(short(update.remoteSHA)), a commit this repository does not have (fetch first to verify only the change)")
        }
        bases.append((update.remoteSHA, "\(remote)'s \(update.remoteRef)"))
        continue
      }
      let candidates = ["refs/remotes/\(remote)/HEAD", "refs/remotes/\(remote)/main", "refs/remotes/\(remote)/master"]
      guard let base = candidates.first(where: commitExists) else {
        return .everything("\(update.remoteRef) is a new branch and \(remote) has no known default branch")
      }
      bases.append((base, "\(remote)'s default branch (\(base.replacingOccurrences(of: "refs/remotes/", with: "")))"))
    }
    let distinct = Set(bases.map(\.base))
    guard distinct.count == 1, let first = bases.first else {
      return .everything("\(pushed.count) refs with different bases are being pushed")
    }
    return .since(first.base, first.how)
  }

  static func isZero(_ sha: String) -> Bool { !sha.isEmpty && sha.allSatisfy { $0 == "0" } }

  static func short(_ sha: String) -> String { String(sha.prefix(12)) }
}
