import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a short command to completion and returns its output: for `git`
/// queries, outside the scheduler. Nil when it cannot start or exits non-zero.
public enum ProcessOutput {
  public static func shell(_ command: String, in directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> Data? {
    guard let child = try? ChildProcess.spawnShell(command, directory: directory.path, environment: environment) else { return nil }
    _ = fcntl(child.output, F_SETFL, fcntl(child.output, F_GETFL) & ~O_NONBLOCK)
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(child.output, &buffer, buffer.count)
      if n > 0 { data.append(contentsOf: buffer[0..<n]); continue }
      if n < 0 && errno == EINTR { continue }
      break
    }
    close(child.output)
    var status: Int32 = 0
    while waitpid(child.pid, &status, 0) < 0 && errno == EINTR {}
    return exitCode(ofWaitStatus: status) == 0 ? data : nil
  }
}

/// The tree's git state: the HEAD commit and a digest of every uncommitted change.
public struct GitState: Sendable, Equatable {
  public var commit: String
  /// SHA-256 over `git diff HEAD` and the untracked files' names and contents.
  public var changes: String

  /// Nil where the tree is not a git work tree or git is missing.
  public static func read(root: URL) -> GitState? {
    guard let head = ProcessOutput.shell("git rev-parse HEAD 2>/dev/null", in: root) else { return nil }
    let commit = String(decoding: head, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !commit.isEmpty else { return nil }
    var digest = Digest()
    digest.update(ProcessOutput.shell("git diff HEAD --binary 2>/dev/null", in: root) ?? Data())
    let untracked = ProcessOutput.shell("git ls-files --others --exclude-standard -z 2>/dev/null", in: root) ?? Data()
    for name in untracked.split(separator: 0).map({ String(decoding: $0, as: UTF8.self) }).sorted() {
      digest.update("untracked:\(name)\n")
      try? digest.update(fileAt: root.appendingPathComponent(name).path)
    }
    return GitState(commit: commit, changes: digest.hex())
  }
}
