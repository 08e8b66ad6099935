import DuetSupport

/// What broke a lane's declaration, in the words its record gives (issue 56,
/// item 2): the files it read that it did not declare, what it wrote outside
/// its `outputs:`, or, when duet cannot name them, that it cannot.
package enum SandboxFindings {
  /// The most files a note names; the rest are counted.
  static let shownFiles = 5

  /// The traced reads a lane's declaration does not cover: those inside the
  /// tree (relative to `root`) that are not under `declared` (its inputs, its
  /// needs' outputs, its own outputs, relative paths), and those outside it
  /// that are not under `visible` (the folders the sandbox shows). Only paths
  /// `isFile` says are regular files now count: folders and lookups that
  /// found nothing are no read.
  package static func undeclared(reads: [String], root: String, declared: [String], visible: [String],
                                 isFile: (String) -> Bool) -> (inTree: [String], outside: [String]) {
    var inTree: [String] = [], outside: [String] = []
    for path in reads {
      if SandboxLayout.isWithin(path, root) {
        let relative = String(path.dropFirst(root.count + 1))
        let first = relative.split(separator: "/").first.map(String.init) ?? ""
        guard !relative.isEmpty, first != ".duet", first != ".git",
              !declared.contains(where: { SandboxLayout.isWithin(relative, $0) }), isFile(path) else { continue }
        inTree.append(relative)
      } else if !visible.contains(where: { SandboxLayout.isWithin(path, $0) }), isFile(path) {
        outside.append(path)
      }
    }
    return (inTree, outside)
  }

  /// The note of a lane that failed in the sandbox and passed outside it.
  /// `traced` is false when duet had no strace to name the files.
  package static func failedOnlyInside(inTree: [String], outside: [String], traced: Bool) -> String {
    guard traced else {
      return "fails in the sandbox and passes outside it: it reads outside its inputs, and duet cannot name the files (strace is not installed; install it to have them named)"
    }
    var parts: [String] = []
    if !inTree.isEmpty {
      parts.append("reads outside its inputs: \(listed(inTree)); add \(inTree.count == 1 ? "it" : "them") to inputs:")
    }
    if !outside.isEmpty {
      parts.append("reads outside the tree and the system's folders: \(listed(outside))")
    }
    if parts.isEmpty {
      return "fails in the sandbox and passes outside it, but its trace shows no undeclared file (does it need the network? say network: true)"
    }
    return parts.joined(separator: "; ")
  }

  /// The note of a lane that failed in macOS's sandbox and passed outside it:
  /// sandbox-exec refuses what the profile does not allow and tells duet
  /// nothing of it, and macOS has no strace, so the files are not named.
  package static let failedOnlyInsideUnnamed = "fails in the sandbox and passes outside it: it reads or writes outside its declaration, and on macOS duet cannot name the files (sandbox-exec does not report them; the lane's log shows the refused call, as 'Operation not permitted')"

  /// `wrote outside its outputs: stray.txt`.
  package static func wroteOutside(_ paths: [String]) -> String {
    "wrote outside its outputs: \(listed(paths))"
  }

  /// `a, b, c and 4 more`: a terminal line, each path (tree text, or a
  /// traced path from anywhere) escaped as it goes in.
  static func listed(_ paths: [String]) -> TerminalLine {
    let shown = paths.prefix(shownFiles).map { "\($0)" as TerminalLine }.joined(separator: ", ")
    return paths.count > shownFiles ? "\(shown) and \(paths.count - shownFiles) more" : shown
  }
}
