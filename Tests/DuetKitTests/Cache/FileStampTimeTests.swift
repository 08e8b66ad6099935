import Foundation
import Testing
@testable import DuetSupport

/// Review of issues 37 and 40: a file dated past 2262 (its nanoseconds since
/// 1970 overflow Int64) is stamped, not a trap. Such a file reached FileStamp
/// from a lane's `reports:` and `outputs:`, and `duet verify` crashed.
@Suite("File stamps of far dates")
struct FileStampTimeTests {
  @Test func nanosecondsClamp() {
    #expect(FileStamp.nanoseconds(1, 5) == 1_000_000_005)
    #expect(FileStamp.nanoseconds(10_000_000_000, 0) == Int64.max)
    #expect(FileStamp.nanoseconds(-10_000_000_000, 0) == Int64.min)
    #expect(FileStamp.nanoseconds(Int64.max / 1_000_000_000, 999_999_999) == Int64.max)
  }

  @Test func aFileFromTheYear2300IsStamped() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("duet-stamp-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("report.xml").path
    #expect(FileManager.default.createFile(atPath: file, contents: Data("<testsuite/>".utf8)))
    // 2300-01-01, past what Int64 nanoseconds hold.
    var times = [timespec(tv_sec: 10_413_792_000, tv_nsec: 0), timespec(tv_sec: 10_413_792_000, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, file, &times, 0) == 0, "the file system keeps no such date")
    let stamp = try #require(FileStamp.of(file))
    #expect(stamp.modified == Int64.max)
  }
}
