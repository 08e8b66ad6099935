import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `lstat` says of a file, as far as telling "unchanged" goes: device,
/// inode, size, mode, and the modification and change times to the
/// nanosecond. An output whose stamp equals the one taken when duet last
/// wrote or hashed it is taken as unchanged without reading it, as ninja and
/// Bazel trust a file's metadata; the change time cannot be set back by a
/// tool, so an edit that restores the modification time is still seen.
package struct FileStamp: Sendable, Hashable {
  package var device: UInt64
  package var inode: UInt64
  package var size: Int64
  package var mode: UInt32
  package var modified: Int64
  package var changed: Int64

  /// The stamp of the file at `path` (not followed), or nil when there is none.
  package static func of(_ path: String) -> FileStamp? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return FileStamp(info)
  }

  /// A file's modification time in nanoseconds since 1970, on either platform.
  package static func modifiedNanoseconds(_ info: stat) -> Int64 {
    #if canImport(Darwin)
    return nanoseconds(Int64(info.st_mtimespec.tv_sec), Int64(info.st_mtimespec.tv_nsec))
    #else
    return nanoseconds(Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
    #endif
  }

  /// A time the file system holds, in nanoseconds, clamped: a file dated past
  /// 2262 (`touch -d 2300-01-01`) or before 1678 overflows Int64 nanoseconds,
  /// and is a file to stamp, not a trap.
  static func nanoseconds(_ seconds: Int64, _ nanoseconds: Int64) -> Int64 {
    let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? Int64.min : Int64.max }
    let (sum, over) = product.addingReportingOverflow(nanoseconds)
    return over ? (product < 0 ? Int64.min : Int64.max) : sum
  }

  /// One line per file: `device inode size mode modified changed<TAB>path`.
  package static func serialize(_ stamps: [String: FileStamp]) -> String {
    stamps.keys.sorted().map { path in
      let s = stamps[path]!
      return "\(s.device) \(s.inode) \(s.size) \(s.mode) \(s.modified) \(s.changed)\t\(path)\n"
    }.joined()
  }

  /// Stamps read back; a line in another form is dropped (its file is then hashed).
  package static func parse(_ text: String) -> [String: FileStamp] {
    var stamps: [String: FileStamp] = [:]
    for line in text.split(separator: "\n") {
      guard let tab = line.firstIndex(of: "\t") else { continue }
      let numbers = line[..<tab].split(separator: " ")
      guard numbers.count == 6, let device = UInt64(numbers[0]), let inode = UInt64(numbers[1]), let size = Int64(numbers[2]),
            let mode = UInt32(numbers[3]), let modified = Int64(numbers[4]), let changed = Int64(numbers[5]) else { continue }
      stamps[String(line[line.index(after: tab)...])] = FileStamp(device: device, inode: inode, size: size, mode: mode, modified: modified, changed: changed)
    }
    return stamps
  }
}

extension FileStamp {
  /// The stamp of what `stat`, `lstat` or `fstatat` found.
  init(_ info: stat) {
    #if canImport(Darwin)
    let changed = FileStamp.nanoseconds(Int64(info.st_ctimespec.tv_sec), Int64(info.st_ctimespec.tv_nsec))
    #else
    let changed = FileStamp.nanoseconds(Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec))
    #endif
    self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), mode: UInt32(info.st_mode),
              modified: FileStamp.modifiedNanoseconds(info), changed: changed)
  }
}
