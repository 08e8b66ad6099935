import Foundation
import DuetSupport

/// The programs a sandboxed run needs (bubblewrap) and may use (strace to
/// name what a lane read), found on `PATH` when a run asks for the sandbox.
struct SandboxTools: Sendable, Equatable {
  var bubblewrap: String
  var strace: String?

  init(bubblewrap: String, strace: String?) {
    self.bubblewrap = bubblewrap
    self.strace = strace
  }

  /// bubblewrap and strace on `path`, or why the sandbox cannot run here: a
  /// usage error (exit 2) naming what to install.
  static func find(path: String) -> Result<SandboxTools, UsageError> {
    #if os(Linux)
    guard let bubblewrap = program("bwrap", path: path) else {
      return .failure(UsageError(message: "the sandbox (--sandbox, sandbox: true) runs lanes under bubblewrap, which is not installed: install the bubblewrap package (apt-get install bubblewrap)", command: "verify"))
    }
    return .success(SandboxTools(bubblewrap: bubblewrap, strace: program("strace", path: path)))
    #else
    return .failure(UsageError(message: "the sandbox (--sandbox, sandbox: true) runs lanes under bubblewrap, on Linux only for now (macOS sandbox-exec is not supported yet): run it on Linux with the bubblewrap package installed", command: "verify"))
    #endif
  }

  /// The first executable `name` on `path`.
  static func program(_ name: String, path: String) -> String? {
    path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
  }

  /// The folders a lane's `requires:` programs live in: the program's own and,
  /// when it is a link, the install folder of what it points to (`/opt/jdk`
  /// for `/opt/jdk/bin/java`). A path (`./gradlew`) is the tree's.
  static func folders(of programs: [String], path: String) -> [String] {
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
  static let systemLinks: [String: String] = {
    var links: [String: String] = [:]
    for folder in SandboxLayout.systemFolders {
      if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: folder) { links[folder] = target }
    }
    return links
  }()
}
