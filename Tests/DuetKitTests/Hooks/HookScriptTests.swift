import Foundation
import Testing
@testable import DuetHooks
@testable import DuetModel
@testable import DuetSupport

/// Runs `/bin/sh` with `arguments` in `folder`, stdin empty, `PATH` as given.
private func sh(_ arguments: [String], in folder: URL, path: String) throws -> (status: Int32, stderr: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = arguments
  process.currentDirectoryURL = folder
  process.environment = ["PATH": path, "HOME": folder.path]
  process.standardInput = FileHandle.nullDevice
  process.standardOutput = FileHandle.nullDevice
  let error = Pipe()
  process.standardError = error
  try process.run()
  let text = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return (process.terminationStatus, text)
}

/// The hook script with duet's path and the root taken from anywhere (issue 27, defect 5).
@Suite struct HookScriptTests {
  static let paths = ["/opt/we\"ird/duet", "/opt/x$(touch PWNED)y/duet", "/opt/it's/duet", "/opt/back`touch PWNED`tick/duet", "/opt/dollar $HOME/duet", "/opt/new\nline/duet"]

  /// Every hook parses (`sh -n`) whatever duet's path and the root hold, and a
  /// hook whose duet is missing prints the path as it is and runs nothing from it.
  @Test func pathsAreSingleQuotedWords() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-hook-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try sh(["-c", "git init -q ."], in: folder, path: "/usr/bin:/bin").status == 0)
    for path in Self.paths {
      for placement in [GitHook.Placement.gitFolder, .workTree, .outside] {
        let script = GitHook.script(.prePush, duetPath: path, rootFromTop: "sub $(touch PWNED)", placement: placement)
        let file = folder.appendingPathComponent("hook.sh")
        try Data(script.utf8).write(to: file)
        #expect(try sh(["-n", file.path], in: folder, path: "/usr/bin:/bin").status == 0, "\(path): \(script)")
        let run = try sh([file.path], in: folder, path: "/usr/bin:/bin")
        if placement != .outside {
          #expect(run.status == 1, "\(path) \(placement): \(run.stderr)")
          #expect(run.stderr.contains("duet hook: duet is"), "\(run.stderr)")
        }
        if placement == .gitFolder { #expect(run.stderr.contains(path), "\(run.stderr)") }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("PWNED").path), "\(path) \(placement)")
      }
    }
  }

  /// Placed outside the repository, the hook finds duet by name and does nothing
  /// where the repository has no manifest; in the work tree, by name too.
  @Test func sharedHooksNameDuetOnPath() {
    let outside = GitHook.script(.prePush, duetPath: "/home/me/bin/duet", rootFromTop: ".", placement: .outside)
    #expect(!outside.contains("/home/me/bin/duet"))
    #expect(outside.contains("[ -f \"$top\"/./lanes/manifest.yaml ] || [ -f \"$top\"/./parity/manifest.yaml ] || exit 0"))
    let tracked = GitHook.script(.prePush, duetPath: "/home/me/bin/duet", rootFromTop: ".", placement: .workTree)
    #expect(!tracked.contains("/home/me/bin/duet") && tracked.contains("duet=$(command -v duet)"))
    #expect(!tracked.contains("exit 0"))
  }
}
