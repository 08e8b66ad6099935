import Foundation
import DuetCommandLine
import DuetSupport

/// The version `duet --version` prints and history records.
let duetVersion = "0.1.0"

/// `duet --version`'s line: the version and the commit it was built from.
func duetVersionLine(buildCommit: String) -> String {
  buildCommit == Invocation.unknownCommit ? "duet \(duetVersion) (unknown commit)" : "duet \(duetVersion) (commit \(buildCommit))"
}

/// What a built-in lane's fingerprint knows of duet's own code, for the tree
/// at `root`: the version and a digest of this executable's bytes. With
/// `remember` false (a `--dry-run`) its memo under `.duet` is not written;
/// worked out once, at the first built-in lane, for the whole process.
func duetCodeIdentity(_ invocation: Invocation, root: URL, remember: Bool = true) -> @Sendable () -> String {
  let executable = invocation.executable
  return BinaryIdentity.once(version: duetVersion, executable: executable.resolvingSymlinksInPath().path, root: root,
                             remember: remember)
}
