/// The sandbox-exec profile of one lane on macOS (issue 56), in Apple's
/// Sandbox Profile Language, as Bazel's darwin sandbox writes it: everything
/// allowed, then narrowed, the last matching rule winning. The tree is hidden
/// but for the lane's declared files; nothing is writable but its outputs,
/// its reports' folders and the temporary folders; the network is closed but
/// for this machine unless the lane says `network: true`. A pure function of
/// the paths, so a test on Linux reads every rule.
///
/// Unlike bubblewrap on Linux, the lane runs in the tree itself: a write
/// outside its outputs is refused when it is made (the lane sees "Operation
/// not permitted"), not collected and named afterwards, and reads outside the
/// tree (the home folder, say) stay open.
package enum SandboxProfile {
  /// What one lane may reach. Every path is absolute and resolved (no links:
  /// the kernel matches resolved paths, `/private/tmp`, not `/tmp`).
  package struct Paths: Sendable, Equatable {
    /// The tree's root: hidden, but for what follows.
    var root: String
    /// Files and folders the lane reads: its inputs, its needs' outputs, duet's files handed to it.
    var readable: [String]
    /// Files and folders the lane writes (and reads): its outputs and its reports' folders.
    var writable: [String]
    /// Folders outside the tree it may write: the temporary folders.
    var temporary: [String]
    /// The lane's working folder: its name can be asked (`pwd`), not its listing.
    var directory: String

    package init(root: String, readable: [String], writable: [String], temporary: [String], directory: String) {
      self.root = root
      self.readable = readable
      self.writable = writable
      self.temporary = temporary
      self.directory = directory
    }
  }

  /// The devices a shell writes to: discarding output, its terminal, the descriptors folder.
  static let devices = ["(literal \"/dev/null\")", "(literal \"/dev/zero\")", "(literal \"/dev/tty\")",
                        "(literal \"/dev/dtracehelper\")", "(subpath \"/dev/fd\")"]

  /// The profile's text.
  package static func make(_ paths: Paths, network: Bool) -> String {
    var lines = ["(version 1)", "(allow default)"]
    if !network {
      lines += ["(deny network*)", "(allow network* (local ip \"localhost:*\"))", "(allow network* (remote ip \"localhost:*\"))",
                "(allow network* (remote unix-socket))"]
    }
    // The tree hidden, then its declared files shown, and the folders above
    // them known by name only (a path can be resolved; a folder not listed).
    lines.append("(deny file-read* (subpath \(quoted(paths.root))))")
    let shown = Set(paths.readable + paths.writable).sorted()
    let ancestors = Set((shown + [paths.directory]).flatMap { folders(above: $0, within: paths.root) } + [paths.directory])
      .filter { SandboxLayout.isWithin($0, paths.root) }.sorted()
    lines += rule("(allow file-read-metadata", ancestors.map { "(literal \(quoted($0)))" })
    lines += rule("(allow file-read*", shown.map { "(subpath \(quoted($0)))" })
    lines.append("(deny file-write*)")
    let writable = Set(paths.writable + paths.temporary).sorted().map { "(subpath \(quoted($0)))" }
    lines += rule("(allow file-write*", writable + devices)
    return lines.joined(separator: "\n") + "\n"
  }

  /// `head` and one filter a line, closed; nothing when there is no filter.
  static func rule(_ head: String, _ filters: [String]) -> [String] {
    filters.isEmpty ? [] : [head] + filters.map { "    \($0)" } + [")"]
  }

  /// The folders above `path` up to and including `root` (`/t/a/b` in `/t`: `/t/a`, `/t`).
  static func folders(above path: String, within root: String) -> [String] {
    var found: [String] = []
    var current = path
    while current != root, let slash = current.lastIndex(of: "/"), slash != current.startIndex {
      current = String(current[..<slash])
      found.append(current)
    }
    return found
  }

  /// `text` as an SBPL string: in quotes, with `\` and `"` escaped and
  /// control characters written as escapes, so no path can end the string.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      case _ where scalar.value < 0x20 || scalar.value == 0x7f:
        let hex = String(scalar.value, radix: 16)
        out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
