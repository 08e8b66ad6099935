import Foundation
import DuetModel
import DuetProcess
import DuetSupport

/// The files a change touches, read from git: everything that differs between a
/// base commit and the work tree (the commits since the base, staged and
/// unstaged edits, deletions, both sides of a rename) plus untracked files.
/// Paths are relative to the tree root; files outside it are left out.
package enum ChangedFiles {
  /// Where the change starts.
  package enum Base: Sendable, Equatable {
    /// `--since REF`: the merge-base of REF and HEAD.
    case since(String)
    /// `--changed`: the merge-base with the upstream branch, else `origin/HEAD`, else `HEAD`.
    case upstream
  }

  package struct Result: Sendable, Equatable {
    /// The commit the change is measured from.
    var base: String
    /// How the base was found, for people: `merge-base with origin/main (3f2a1b0)`.
    package var description: String
    /// Sorted by path bytes, each once.
    package var files: [String]

    /// A change measured some other way than from git (`--watch`: the files
    /// changed since the last run, `base` saying so).
    package init(base: String, description: String, files: [String]) {
      self.base = base
      self.description = description
      self.files = files
    }
  }

  package struct Failure: Error, CustomStringConvertible, Sendable {
    package var message: String
    package var description: String { message }
  }

  /// `environment` is the invocation's: git reads `GIT_DIR`, `GIT_INDEX_FILE`
  /// and the rest from it, never from duet's own process.
  package static func read(_ base: Base, root: URL, environment: [String: String]) throws(Failure) -> Result {
    guard ProcessOutput.git(["rev-parse", "--is-inside-work-tree"], in: root, environment: environment) == "true" else {
      throw Failure(message: "\(root.path) is not inside a git work tree, so there is no change to measure; run without --since/--changed")
    }
    let (ref, how) = try resolve(base, root: root, environment: environment)
    guard let mergeBase = ProcessOutput.git(["merge-base", ref, "HEAD"], in: root, environment: environment) else {
      throw Failure(message: "git finds no common ancestor of '\(ref)' and HEAD")
    }
    let short = String(mergeBase.prefix(12))
    let named = how.count == 40 && how.allSatisfy(\.isHexDigit) ? String(how.prefix(12)) : how
    let description = ref == "HEAD" ? "HEAD (\(short))" : named == short ? "\(short)" : "merge-base with \(named) (\(short))"
    guard let diff = ProcessOutput.gitOutput(["diff", "--name-status", "-z", "-M", "--relative", mergeBase, "--"], in: root, environment: environment),
          let untracked = ProcessOutput.gitOutput(["ls-files", "--others", "--exclude-standard", "-z"], in: root, environment: environment) else {
      throw Failure(message: "git could not list the changes since \(short)")
    }
    var files = Set(parseNameStatus(diff))
    for name in untracked.split(separator: 0) where !name.isEmpty { files.insert(String(decoding: name, as: UTF8.self)) }
    return Result(base: mergeBase, description: description, files: files.sorted(by: Glob.precedes))
  }

  /// The ref the base is measured from, and how to name it.
  static func resolve(_ base: Base, root: URL, environment: [String: String]) throws(Failure) -> (ref: String, how: String) {
    switch base {
    case .since(let ref):
      guard ProcessOutput.isCommit(ref, in: root, environment: environment) else {
        throw Failure(message: "--since \(ref): git knows no commit by that name (try a branch, a tag or a SHA: --since origin/main)")
      }
      return (ref, ref)
    case .upstream:
      if let upstream = ProcessOutput.git(["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"], in: root, environment: environment), !upstream.isEmpty {
        return (upstream, upstream)
      }
      if ProcessOutput.isCommit("refs/remotes/origin/HEAD", in: root, environment: environment) { return ("refs/remotes/origin/HEAD", "origin/HEAD") }
      guard ProcessOutput.isCommit("HEAD", in: root, environment: environment) else {
        throw Failure(message: "--changed: the repository has no commit yet; run without it")
      }
      return ("HEAD", "HEAD")
    }
  }

  /// Paths of `git diff --name-status -z`: one per entry, two for a rename or copy.
  static func parseNameStatus(_ data: Data) -> [String] {
    let fields = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    var paths: [String] = []
    var i = 0
    while i < fields.count {
      let status = fields[i]
      i += 1
      guard let kind = status.first, !status.isEmpty else { continue }
      let count = kind == "R" || kind == "C" ? 2 : 1
      for _ in 0..<count where i < fields.count {
        if !fields[i].isEmpty { paths.append(fields[i]) }
        i += 1
      }
    }
    return paths
  }
}
