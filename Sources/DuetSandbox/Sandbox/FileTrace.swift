import Foundation

/// The files a lane reached, read from `strace -f -y -e trace=%file` output
/// (issue 56, item 2): each successful file call's path made absolute from the
/// folder strace names beside the descriptor (`AT_FDCWD</tree/lanes>`), or
/// from the process's last known folder. Calls that create or write a file
/// are left out: a read is what a declaration misses. A pure reading of text.
package enum FileTrace {
  /// The absolute paths the trace's successful, non-writing file calls name, each once, sorted.
  package static func reads(_ text: String, workingDirectory: String) -> [String] {
    var folders: [Substring: String] = [:]
    var found = Set<String>()
    for line in text.split(separator: "\n") {
      guard let call = Call(line) else { continue }
      if let folder = call.folder { folders[call.pid] = folder }
      guard call.succeeded, !call.writes else { continue }
      if call.name == "chdir" || call.name == "fchdir", let path = call.path {
        folders[call.pid] = absolute(path, in: folders[call.pid] ?? workingDirectory)
        continue
      }
      guard let path = call.path, !path.isEmpty else { continue }
      found.insert(absolute(path, in: call.folder ?? folders[call.pid] ?? workingDirectory))
    }
    return found.sorted()
  }

  /// One line of the trace: `123 openat(AT_FDCWD</t>, "a.txt", O_RDONLY) = 3</t/a.txt>`.
  struct Call {
    var pid: Substring
    var name: Substring
    /// The folder of the descriptor a path is relative to, when strace names one.
    var folder: String?
    var path: String?
    var succeeded: Bool
    var writes: Bool

    init?(_ line: Substring) {
      let fields = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
      guard fields.count == 2, let open = fields[1].firstIndex(of: "(") else { return nil }
      pid = fields[0]
      let rest = fields[1].drop { $0 == " " }
      name = rest[rest.startIndex..<open]
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
      var arguments = rest[rest.index(after: open)...]
      // `AT_FDCWD</folder>` or `3</folder>` before the path.
      if let quote = arguments.firstIndex(of: "\""), let angle = arguments.firstIndex(of: "<"), angle < quote,
         let close = arguments[angle...].firstIndex(of: ">"), close < quote {
        folder = String(arguments[arguments.index(after: angle)..<close])
        arguments = arguments[quote...]
      }
      path = Call.quoted(arguments)
      guard let equals = rest.range(of: ") = ", options: .backwards) else { return nil }
      succeeded = !rest[equals.upperBound...].hasPrefix("-")
      let flags = rest[..<equals.lowerBound]
      // Opened to write (creating or truncating needs one of these too).
      writes = ["O_WRONLY", "O_RDWR"].contains { flags.contains($0) }
        || ["mkdir", "mkdirat", "unlink", "unlinkat", "rename", "renameat", "renameat2", "rmdir", "symlink", "symlinkat", "link", "linkat",
            "creat", "truncate", "chmod", "fchmodat", "utimensat"].contains(String(name))
    }

    /// The first C string in `text`, its escapes read (`\"`, `\\`, `\n`, octal).
    static func quoted(_ text: Substring) -> String? {
      guard text.first == "\"" else { return nil }
      var bytes: [UInt8] = []
      var iterator = text.utf8.dropFirst().makeIterator()
      while let byte = iterator.next() {
        if byte == UInt8(ascii: "\"") { return String(decoding: bytes, as: UTF8.self) }
        guard byte == UInt8(ascii: "\\"), let next = iterator.next() else { bytes.append(byte); continue }
        switch next {
        case UInt8(ascii: "n"): bytes.append(10)
        case UInt8(ascii: "t"): bytes.append(9)
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
          var value = Int(next - UInt8(ascii: "0"))
          for _ in 0..<2 {
            guard let digit = iterator.next() else { break }
            value = value * 8 + Int(digit &- UInt8(ascii: "0"))
          }
          bytes.append(UInt8(truncatingIfNeeded: value))
        default: bytes.append(next)
        }
      }
      return nil
    }
  }

  /// `path` made absolute against `folder`, with `.` and `..` resolved by name.
  static func absolute(_ path: String, in folder: String) -> String {
    var parts: [Substring] = []
    for part in (path.hasPrefix("/") ? path : folder + "/" + path).split(separator: "/") {
      if part == "." { continue }
      if part == ".." { _ = parts.popLast(); continue }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }
}
