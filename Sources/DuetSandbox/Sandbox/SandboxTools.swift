import Foundation
import DuetSupport

/// The programs a sandboxed run needs and may use, found when a run asks for
/// the sandbox: on Linux bubblewrap (and strace to name what a lane read), on
/// macOS `/usr/bin/sandbox-exec` (nothing there names a lane's reads to duet).
package struct SandboxTools: Sendable, Equatable {
  package enum Kind: Sendable, Equatable {
    case bubblewrap, sandboxExec

    package var name: String { self == .bubblewrap ? "bubblewrap" : "sandbox-exec" }
  }

  package var kind: Kind = .bubblewrap
  /// `bwrap` or `/usr/bin/sandbox-exec`: the program that starts a lane in its sandbox.
  package var launcher: String
  package var strace: String?

  /// Where macOS keeps sandbox-exec.
  static let sandboxExec = "/usr/bin/sandbox-exec"

  /// The sandbox's programs on `path`, or why the sandbox cannot run here: a
  /// usage error (exit 2) of `command`, naming what to install.
  package static func find(path: String, command: String = "verify") -> Result<SandboxTools, UsageError> {
    #if os(Linux)
    guard let bubblewrap = program("bwrap", path: path) else {
      return .failure(UsageError(message: "the sandbox (--sandbox, sandbox: true) runs lanes under bubblewrap, which is not installed: install the bubblewrap package (apt-get install bubblewrap)", command: command))
    }
    return .success(SandboxTools(kind: .bubblewrap, launcher: bubblewrap, strace: program("strace", path: path)))
    #elseif os(macOS)
    guard access(sandboxExec, X_OK) == 0 else {
      return .failure(UsageError(message: "the sandbox (--sandbox, sandbox: true) runs lanes under \(sandboxExec), which is not on this Mac", command: command))
    }
    return .success(SandboxTools(kind: .sandboxExec, launcher: sandboxExec, strace: nil))
    #else
    return .failure(UsageError(message: "the sandbox (--sandbox, sandbox: true) runs lanes under bubblewrap on Linux or sandbox-exec on macOS, and this system has neither", command: command))
    #endif
  }

  /// `path` with every link in it resolved (`/private/tmp/t` for `/tmp/t` on
  /// macOS), as the kernel matches a sandbox-exec profile; as given when it does not exist.
  package static func resolved(_ path: String) -> String {
    guard let pointer = realpath(path, nil) else { return path }
    defer { free(pointer) }
    return String(cString: pointer)
  }

  /// The first executable `name` on `path`.
  static func program(_ name: String, path: String) -> String? {
    path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
  }

  /// The folders a lane's `requires:` programs live in: the program's own and,
  /// when it is a link, the install folder of what it points to (`/opt/jdk`
  /// for `/opt/jdk/bin/java`). A path (`./gradlew`) is the tree's.
  package static func folders(of programs: [String], path: String) -> [String] {
    var folders = Set<String>()
    for name in programs where !name.contains("/") {
      guard let found = program(name, path: path) else { continue }
      folders.insert((found as NSString).deletingLastPathComponent)
      let real = URL(fileURLWithPath: found).resolvingSymlinksInPath().path
      if real != found {
        folders.insert(((real as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent)
      }
    }
    return folders.sorted()
  }

  /// The system folders that are links on this machine (`/bin -> usr/bin`), to their targets.
  package static let systemLinks: [String: String] = {
    var links: [String: String] = [:]
    for folder in SandboxLayout.systemFolders {
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder) { links[folder] = target }
    }
    return links
  }()
}
