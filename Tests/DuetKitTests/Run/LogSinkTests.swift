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

  /// What is not a regular file (a device, a pipe) is written to, never
  /// replaced: the loop's tests log to /dev/null, and as root, replacing it
  /// made /dev/null a regular file for the whole machine. Shown with a pipe in
  /// a folder of the test's own, read from this end.
  @Test func aPipeIsWrittenToNotReplaced() throws {
    let folder = try TemporaryFolder()
    let pipe = folder.url.appendingPathComponent("lane.log").path
    #expect(mkfifo(pipe, 0o600) == 0)
    let reader = open(pipe, O_RDONLY | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    let sink = LogSink(folder: folder.url, fileName: "lane.log", onLine: nil)
    sink.write("output\n")
    sink.close()
    var info = stat()
    #expect(lstat(pipe, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    var buffer = [UInt8](repeating: 0, count: 16)
    #expect(read(reader, &buffer, 16) == 7)
  }

  /// A symbolic link at the log's path (a lane that guessed its run's folder)
  /// is not followed: the file it names, outside the run's logs, keeps its
  /// bytes, and the log is a file of its own.
  @Test func aSymbolicLinkIsReplacedNotFollowed() throws {
    let folder = try TemporaryFolder()
    let outside = folder.url.appendingPathComponent("outside.txt")
    try Data("kept\n".utf8).write(to: outside)
    let logs = folder.url.appendingPathComponent("run")
    try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    let log = logs.appendingPathComponent("lane.log").path
    #expect(symlink(outside.path, log) == 0)
    let sink = LogSink(folder: logs, fileName: "lane.log", onLine: nil)
    sink.write("output\n")
    sink.close()
    #expect(try String(contentsOf: outside, encoding: .utf8) == "kept\n")
    var info = stat()
    #expect(lstat(log, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    #expect(try String(contentsOfFile: log, encoding: .utf8) == "output\n")
  }
}
