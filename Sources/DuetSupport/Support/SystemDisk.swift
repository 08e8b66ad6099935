import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real disk: every store and restore unless a test hands another.
///
/// An existential, held once by each store: a call through it costs a few
/// nanoseconds beside a system call of microseconds, and a file's copy is one
/// call whatever its size (the chunks loop in here), so the restore's hot
/// path pays a handful of calls per file (tools/bench-remote-cache, (e)).
/// A generic store would have put a type parameter on every type that holds
/// one, from the remote cache to the app's commands, for nothing measurable.
package let systemDisk: any StoreDisk = SystemDisk()

/// The system calls behind `StoreDisk`, as the content store, the restore and
/// the history store made them before the seam: the same flags, the same
/// errors in the same words.
struct SystemDisk: StoreDisk {
  /// The copy buffer: 256 KiB, as the store always read.
  static let chunk = 256 * 1024

  func stamp(_ path: String, following: Bool) throws(DiskFailure) -> FileStamp {
    var info = stat()
    guard (following ? stat(path, &info) : lstat(path, &info)) == 0 else { throw DiskFailure(code: errno) }
    return FileStamp(info)
  }

  func status(_ name: String, in folder: Int32) -> FileStamp? {
    var info = stat()
    guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
    return FileStamp(info)
  }

  func names(in path: String) throws(DiskFailure) -> [String] {
    do { return try FileManager.default.contentsOfDirectory(atPath: path) } catch {
      throw DiskFailure(why: error.localizedDescription)
    }
  }

  func linkTarget(_ path: String) -> String? {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = buffer.withUnsafeMutableBufferPointer { pointer in
      pointer.withMemoryRebound(to: CChar.self) { readlink(path, $0.baseAddress!, $0.count - 1) }
    }
    guard count >= 0 else { return nil }
    return String(validating: buffer[..<count], as: UTF8.self)
  }

  func readFile(_ path: String) throws(DiskFailure) -> Data {
    do { return try PathGuard.readRegularFile(atAbsolute: path, displayPath: path) } catch {
      throw DiskFailure(why: "\(error)")
    }
  }

  func makeFolders(_ path: String) throws(DiskFailure) {
    do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
      throw DiskFailure(why: error.localizedDescription)
    }
  }

  func writeFile(_ data: Data, atomicallyTo path: String, shown: String) throws(DiskFailure) {
    do { try AtomicFile.write(data, toAbsolute: path, displayPath: shown, durable: false) } catch {
      throw DiskFailure(why: "\(error)")
    }
  }

  func remove(_ path: String) -> Bool { unlink(path) == 0 }

  func rename(_ path: String, to target: String) throws(DiskFailure) {
    guard Foundation.rename(path, target) == 0 else { throw DiskFailure(code: errno) }
  }

  func move(_ path: String, to target: String) throws(DiskFailure) {
    do { try FileManager.default.moveItem(atPath: path, toPath: target) } catch {
      throw DiskFailure(why: error.localizedDescription)
    }
  }

  func setMode(_ path: String, _ mode: UInt32) { chmod(path, mode_t(mode)) }

  func touch(_ path: String) { utimes(path, nil) }

  func makeTemporary(in folder: String, prefix: String) throws(DiskFailure) -> (fd: Int32, path: String) {
    var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else { throw DiskFailure(code: errno) }
    return (fd, String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  func open(_ path: String) throws(DiskFailure) -> Int32 {
    let fd = Foundation.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw DiskFailure(code: errno) }
    return fd
  }

  func openRegularFile(_ path: String) throws(DiskFailure) -> Int32 {
    do { return try PathGuard.openRegularFile(atAbsolute: path, displayPath: path) } catch {
      throw DiskFailure(why: "\(error)")
    }
  }

  func close(_ fd: Int32) { _ = Foundation.close(fd) }

  func read(_ fd: Int32, seen: (UnsafeRawBufferPointer) -> Void) -> String? {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunk, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = Foundation.read(fd, buffer.baseAddress, buffer.count)
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { return String(cString: strerror(errno)) }
      if n == 0 { return nil }
      seen(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }
  }

  func copy(from source: Int32, to target: Int32, seen: (UnsafeRawBufferPointer) -> Void) -> (bytes: Int, failure: String?) {
    var total = 0
    let failure = pump(from: source, to: target) { chunk in
      seen(chunk)
      total += chunk.count
    }
    return (total, failure)
  }

  /// Copies everything from one descriptor to another, handing each chunk to
  /// `seen`; returns why it stopped early, or nil.
  private func pump(from source: Int32, to target: Int32, seen: (UnsafeRawBufferPointer) -> Void) -> String? {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunk, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = Foundation.read(source, buffer.baseAddress, buffer.count)
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { return String(cString: strerror(errno)) }
      if n == 0 { return nil }
      let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
      seen(chunk)
      if let failure = write(chunk, to: target) { return failure }
    }
  }

  /// Inside the kernel where it can (`sendfile`, Linux), else through a buffer.
  func copyInKernel(from source: Int32, to target: Int32) -> (bytes: Int, failure: String?) {
    var total = 0
    #if os(Linux)
    while true {
      let n = sendfile(target, source, nil, 1 << 30)
      if n < 0 && errno == EINTR { continue }
      if n < 0 && total == 0 && [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EPERM].contains(errno) { break }
      guard n >= 0 else { return (total, String(cString: strerror(errno))) }
      if n == 0 { return (total, nil) }
      total += n
    }
    #endif
    let failure = pump(from: source, to: target) { total += $0.count }
    return (total, failure)
  }

  func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> String? {
    writeAll(fd, bytes).map { String(cString: strerror($0)) }
  }

  func setMode(of fd: Int32, _ mode: UInt32) throws(DiskFailure) {
    guard fchmod(fd, mode_t(mode)) == 0 else { throw DiskFailure(code: errno) }
  }

  func openFolder(_ path: String) throws(DiskFailure) -> Int32 {
    let fd = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw DiskFailure(code: errno) }
    return fd
  }

  func openFolder(_ name: String, in folder: Int32) throws(DiskFailure) -> Int32 {
    let fd = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw DiskFailure(code: errno) }
    return fd
  }

  func duplicate(_ fd: Int32) throws(DiskFailure) -> Int32 {
    let copy = dup(fd)
    guard copy >= 0 else { throw DiskFailure(code: errno) }
    return copy
  }

  func makeFolder(_ name: String, in folder: Int32) throws(DiskFailure) {
    guard mkdirat(folder, name, 0o755) == 0 else { throw DiskFailure(code: errno) }
  }

  func createExclusive(_ name: String, in folder: Int32) throws(DiskFailure) -> Int32 {
    let fd = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw DiskFailure(code: errno) }
    return fd
  }

  func remove(_ name: String, in folder: Int32) throws(DiskFailure) {
    guard unlinkat(folder, name, 0) == 0 else { throw DiskFailure(code: errno) }
  }

  func rename(_ name: String, to target: String, in folder: Int32) throws(DiskFailure) {
    guard renameat(folder, name, folder, target) == 0 else { throw DiskFailure(code: errno) }
  }

  func makeLink(_ name: String, in folder: Int32, to target: String) throws(DiskFailure) {
    guard symlinkat(target, folder, name) == 0 else { throw DiskFailure(code: errno) }
  }

  func hardLink(_ path: String, as name: String, in folder: Int32) throws(DiskFailure) {
    guard linkat(AT_FDCWD, path, folder, name, 0) == 0 else { throw DiskFailure(code: errno) }
  }
}
