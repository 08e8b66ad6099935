/// The version `duet --version` prints and history records.
let duetVersion = "0.1.0"

/// `duet --version`'s line: the version and the commit it was built from.
var duetVersionLine: String {
  duetBuildCommit == "unknown commit" ? "duet \(duetVersion) (unknown commit)" : "duet \(duetVersion) (commit \(duetBuildCommit))"
}
