import Foundation

/// The disk as the content store, a lane's captured and restored outputs, and
/// the history store's file handling see it: only the calls they make, no
/// more (as ninja's `DiskInterface` and SwiftPM's `FileSystem` stand between
/// a build and its files). `systemDisk` is the real one; a test hands an
/// in-memory one to see cache decisions and restores without a disk, or a
/// slow one to see the run loop keep its deadlines while outputs are stored.
///
/// Calls are shaped as the system calls they stand for, descriptors and all,
/// so the rules they keep stay with their callers: a restore walks from the
/// tree's root descriptor (`openFolder(_:in:)` never follows a link), writes
/// beside a file with `createExclusive` and renames over it only where
/// nothing or a regular file stands (`status(_:in:)`). A descriptor is the
/// disk's own number: only that disk's calls take it. Nothing is followed
/// unless the call says so.
package protocol StoreDisk: Sendable {
  // MARK: Looking

  /// What stands at `path` (`lstat`; `following` a last link, `stat`), or why it cannot be seen.
  func stamp(_ path: String, following: Bool) throws(DiskFailure) -> FileStamp
  /// What stands at `name` in the open folder `folder` (`fstatat`, no link followed).
  func status(_ name: String, in folder: Int32) -> FileStamp?
  /// The names in the folder at `path`, in no order.
  func names(in path: String) throws(DiskFailure) -> [String]
  /// The target text of the link at `path`; nil when it is none or not UTF-8.
  func linkTarget(_ path: String) -> String?
  /// A whole regular file's bytes (`PathGuard.readRegularFile`: never through a last link, never a FIFO).
  func readFile(_ path: String) throws(DiskFailure) -> Data

  // MARK: Writing by path, in duet's own folders

  /// Makes a folder and those on the way to it.
  func makeFolders(_ path: String) throws(DiskFailure)
  /// Replaces a file atomically, not flushed (`AtomicFile.write(durable: false)`).
  func writeFile(_ data: Data, atomicallyTo path: String, shown: String) throws(DiskFailure)
  /// Removes a file or link (`unlink`); whether it did.
  @discardableResult func remove(_ path: String) -> Bool
  /// Renames a file over another (`rename`).
  func rename(_ path: String, to target: String) throws(DiskFailure)
  /// Moves a file to a name where nothing stands (`FileManager.moveItem`).
  func move(_ path: String, to target: String) throws(DiskFailure)
  /// Sets a file's permission bits (`chmod`).
  func setMode(_ path: String, _ mode: UInt32)
  /// Marks a file modified now (`utimes`).
  func touch(_ path: String)
  /// A new empty file in the folder at `folder`, named `prefix` and six random
  /// letters (`mkstemp`), open for writing.
  func makeTemporary(in folder: String, prefix: String) throws(DiskFailure) -> (fd: Int32, path: String)

  // MARK: Descriptors

  /// Opens a file for reading, never through a last link (`O_NOFOLLOW`).
  func open(_ path: String) throws(DiskFailure) -> Int32
  /// Opens a regular file for reading as `PathGuard.openRegularFile` does:
  /// the kind of what was opened is checked, a FIFO never blocks.
  func openRegularFile(_ path: String) throws(DiskFailure) -> Int32
  func close(_ fd: Int32)
  /// Reads to the end, handing each chunk to `seen`; why it stopped early, or nil.
  func read(_ fd: Int32, seen: (UnsafeRawBufferPointer) -> Void) -> String?
  /// Copies from one descriptor to the end of the other, handing each chunk
  /// to `seen`. The bytes copied, and why it stopped early.
  func copy(from source: Int32, to target: Int32, seen: (UnsafeRawBufferPointer) -> Void) -> (bytes: Int, failure: String?)
  /// The same copy, unseen: inside the kernel where it can (`sendfile`).
  func copyInKernel(from source: Int32, to target: Int32) -> (bytes: Int, failure: String?)
  /// Writes every byte; why it stopped early, or nil.
  func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> String?
  /// Sets an open file's permission bits (`fchmod`).
  func setMode(of fd: Int32, _ mode: UInt32) throws(DiskFailure)

  // MARK: Folders by descriptor

  /// Opens the folder at `path`, following links on the way (the tree's root, a log's folder).
  func openFolder(_ path: String) throws(DiskFailure) -> Int32
  /// Opens the folder `name` in `folder`; a link or anything but a folder is
  /// refused, never followed (`openat` with `O_DIRECTORY | O_NOFOLLOW`).
  func openFolder(_ name: String, in folder: Int32) throws(DiskFailure) -> Int32
  /// A second descriptor of the same folder (`dup`).
  func duplicate(_ fd: Int32) throws(DiskFailure) -> Int32
  /// Makes the folder `name` in `folder`, mode 0755 (`mkdirat`).
  func makeFolder(_ name: String, in folder: Int32) throws(DiskFailure)
  /// Makes the file `name` in `folder` where nothing stands, mode 0600, open
  /// for writing (`O_CREAT | O_EXCL | O_NOFOLLOW`).
  func createExclusive(_ name: String, in folder: Int32) throws(DiskFailure) -> Int32
  /// Removes the file or link `name` in `folder` (`unlinkat`).
  func remove(_ name: String, in folder: Int32) throws(DiskFailure)
  /// Renames `name` over `target`, both in `folder` (`renameat`).
  func rename(_ name: String, to target: String, in folder: Int32) throws(DiskFailure)
  /// Makes a symbolic link `name` in `folder` with this target text (`symlinkat`).
  func makeLink(_ name: String, in folder: Int32, to target: String) throws(DiskFailure)
  /// Gives the file at `path` a second name, `name` in `folder` (`linkat`).
  func hardLink(_ path: String, as name: String, in folder: Int32) throws(DiskFailure)
}

extension StoreDisk {
  /// What stands at `path` (a last link not followed unless `following`); nil when nothing does.
  package func status(_ path: String, following: Bool = false) -> FileStamp? { try? stamp(path, following: following) }
}

/// Why a disk call failed: the system's error number where there is one
/// (`ENOENT`, `EEXIST`: callers tell those apart), and the reason in words,
/// as the messages have always said it.
package struct DiskFailure: Error, Sendable, CustomStringConvertible {
  package var code: Int32
  /// Words of its own; nil for the system's. Most failures are asked only
  /// for their code ("nothing there", on every blob and output a restore
  /// checks), so the system's words are made only when read.
  private let words: String?

  /// Why, in words: its own, or `strerror`'s for its code.
  package var why: String { words ?? String(cString: strerror(code)) }

  /// A failure the system numbered, said as `strerror` says it.
  package init(code: Int32) {
    self.code = code
    self.words = nil
  }

  /// A failure said in words of its own (a refusal by the path guard).
  init(code: Int32 = 0, why: String) {
    self.code = code
    self.words = why
  }

  package var description: String { why }
}

extension FileStamp {
  /// The kind of file (`S_IFREG`, `S_IFDIR`, `S_IFLNK`…).
  package var kind: mode_t { mode_t(mode) & S_IFMT }
}
