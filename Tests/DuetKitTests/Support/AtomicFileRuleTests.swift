import Foundation
import Testing
@testable import DuetSupport

/// The one rule of what duet's writer replaces (issue 27, defect 6): a regular
/// file or nothing, atomically; a device or pipe is written through; nothing
/// else is ever renamed over.
@Suite struct AtomicFileRuleTests {
  final class Folder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-atomic-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
  }

  func kind(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
  }

  /// Nothing there and a regular file are replaced atomically, as before.
  @Test func regularFilesAreReplaced() throws {
    let folder = try Folder()
    try AtomicFile.write(Data("one".utf8), toAbsolute: folder.path("a.xml"))
    try AtomicFile.write(Data("two".utf8), toAbsolute: folder.path("a.xml"))
    #expect(FileManager.default.contents(atPath: folder.path("a.xml")) == Data("two".utf8))
  }

  /// A link to a character device (`/dev/null`, as `/dev/stdout` is a link to a
  /// descriptor) is written through and stays a link; before, a regular file
  /// was renamed over it.
  @Test func linkToADeviceIsWrittenThrough() throws {
    let folder = try Folder()
    let link = folder.path("null")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
    try AtomicFile.write(Data("<testsuites/>".utf8), toAbsolute: link)
    #expect(kind(link) == S_IFLNK)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "/dev/null")
    #expect(kind("/dev/null") == S_IFCHR)
  }

  /// A FIFO with a reader is written through (the reader gets the bytes); one
  /// with no reader is refused at once, not waited on; both stay FIFOs.
  @Test func fifosAreWrittenThroughOrRefused() throws {
    let folder = try Folder()
    let fifo = folder.path("pipe")
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: FileError.self) { try AtomicFile.write(Data("x".utf8), toAbsolute: fifo) }
    #expect(throws: FileError.self) { try AtomicFile.append(Data("x".utf8), toAbsolute: fifo) }
    #expect(kind(fifo) == S_IFIFO)
    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    #expect(reader >= 0)
    defer { close(reader) }
    try AtomicFile.write(Data("hello".utf8), toAbsolute: fifo)
    var buffer = [UInt8](repeating: 0, count: 16)
    let n = read(reader, &buffer, 16)
    #expect(n == 5 && Array(buffer.prefix(5)) == Array("hello".utf8))
    #expect(kind(fifo) == S_IFIFO)
  }

  /// A folder, a link to a regular file and a dangling link are refused, each
  /// left exactly as it was.
  @Test func everythingElseIsRefused() throws {
    let folder = try Folder()
    try FileManager.default.createDirectory(atPath: folder.path("dir"), withIntermediateDirectories: true)
    try Data("keep".utf8).write(to: URL(fileURLWithPath: folder.path("real")))
    try FileManager.default.createSymbolicLink(atPath: folder.path("tofile"), withDestinationPath: folder.path("real"))
    try FileManager.default.createSymbolicLink(atPath: folder.path("dangling"), withDestinationPath: folder.path("nothing"))
    for name in ["dir", "tofile", "dangling"] {
      #expect(throws: FileError.self, "\(name)") { try AtomicFile.write(Data("x".utf8), toAbsolute: folder.path(name)) }
      #expect(throws: FileError.self, "\(name)") { try AtomicFile.append(Data("x".utf8), toAbsolute: folder.path(name)) }
    }
    #expect(kind(folder.path("dir")) == S_IFDIR && kind(folder.path("tofile")) == S_IFLNK && kind(folder.path("dangling")) == S_IFLNK)
    #expect(FileManager.default.contents(atPath: folder.path("real")) == Data("keep".utf8))
    #expect(!FileManager.default.fileExists(atPath: folder.path("nothing")))
  }
}
