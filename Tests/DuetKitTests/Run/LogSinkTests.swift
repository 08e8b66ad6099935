@testable import DuetProcess
import Foundation
import Testing

/// A lane's log is a new file: a restored log may be the content store's blob
/// under a second name (a hard link), and a lane that runs after all in the
/// same run must not write through it into the store.
@Suite("A log is written as a new file")
struct LogSinkTests {
  @Test func aLinkedLogIsReplacedNotWrittenThrough() throws {
    let folder = try TemporaryFolder()
    let blob = folder.url.appendingPathComponent("blob")
    try Data("the store's bytes\n".utf8).write(to: blob)
    chmod(blob.path, 0o444)
    let logs = folder.url.appendingPathComponent("logs")
    try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    #expect(link(blob.path, logs.appendingPathComponent("lane.log").path) == 0)
    let sink = LogSink(folder: logs, fileName: "lane.log", onLine: nil)
    sink.write("the lane's own output\n")
    sink.close()
    #expect(sink.wroteFile)
    #expect(FileManager.default.contents(atPath: logs.appendingPathComponent("lane.log").path) == Data("the lane's own output\n".utf8))
    #expect(FileManager.default.contents(atPath: blob.path) == Data("the store's bytes\n".utf8))
  }

  /// Only a file or a link is replaced: a device or a pipe at the log's path is
  /// never unlinked (a test's log at /dev/null, run as root, took the machine's
  /// /dev/null away and left a regular file there). The lane then has no log.
  @Test func aPipeAtTheLogsPathIsNeverUnlinked() throws {
    let folder = try TemporaryFolder()
    let fifo = folder.url.appendingPathComponent("lane.log").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let sink = LogSink(folder: folder.url, fileName: "lane.log", onLine: nil)
    sink.write("the lane's own output\n")
    sink.close()
    #expect(!sink.wroteFile)
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the pipe was replaced")
  }
}
