import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

/// The version `duet --version` prints and history records.
let duetVersion = "0.1.0"

/// `duet --version`'s line: the version and the commit it was built from.
var duetVersionLine: String {
  duetBuildCommit == "unknown commit" ? "duet \(duetVersion) (unknown commit)" : "duet \(duetVersion) (commit \(duetBuildCommit))"
}

/// What a built-in lane's fingerprint knows of duet's own code: the commit it
/// was built from when that is clean, else the executable's size and change
/// time, so a duet rebuilt from edited sources does not reuse built-in passes.
let duetCodeIdentity: String = {
  if duetBuildCommit != "unknown commit" && !duetBuildCommit.hasSuffix("-dirty") { return "\(duetVersion) \(duetBuildCommit)" }
  guard let path = Bundle.main.executableURL?.resolvingSymlinksInPath().path,
        let attributes = try? FileManager.default.attributesOfItem(atPath: path),
        let size = attributes[.size] as? NSNumber, let date = attributes[.modificationDate] as? Date else { return duetVersion }
  return "\(duetVersion) binary \(size) \(Int(date.timeIntervalSince1970))"
}()
