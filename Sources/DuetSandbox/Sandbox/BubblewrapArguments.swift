/// The arguments of `bwrap` for one lane: its layout, its network, its folder
/// and its command. A pure function, so what a lane can see is read in a test.
package enum BubblewrapArguments {
  /// The descriptor on which bubblewrap reports, as JSON, that the lane's
  /// process started (`child-pid`): without it, the sandbox could not start.
  package static let statusDescriptor = 4

  /// Every namespace bubblewrap can make (user, IPC, PID, network, UTS, cgroup)
  /// is new; `network` keeps the host's. The sandbox ends with duet
  /// (`--die-with-parent`), and the lane runs `/bin/sh -c command` in `directory`.
  package static func make(_ layout: SandboxLayout, network: Bool, directory: String, command: String) -> [String] {
    var words = ["--unshare-all"]
    if network { words.append("--share-net") }
    words += ["--die-with-parent", "--json-status-fd", String(statusDescriptor)]
    for mount in layout.mounts {
      switch mount {
      case .readOnly(let source, let path, let optional): words += [optional ? "--ro-bind-try" : "--ro-bind", source, path]
      case .writable(let source, let path): words += ["--bind", source, path]
      case .link(let target, let path): words += ["--symlink", target, path]
      case .tmpfs(let path): words += ["--tmpfs", path]
      case .proc(let path): words += ["--proc", path]
      case .dev(let path): words += ["--dev", path]
      }
    }
    words += ["--chdir", directory, "/bin/sh", "-c", command]
    return words
  }
}
