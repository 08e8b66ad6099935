@testable import DuetSupport
import Foundation
import Testing
@testable import DuetCache

/// Issue 51, item 8: a large file is known by its content, its digest kept
/// between runs beside its stamp; a swap that keeps size and modification
/// time is hashed again, since its change time moved.
@Suite("Digests of large files kept by their stamp")
struct FileDigestMemoTests {
  /// A memo written after the file settled serves the next run without
  /// reading the file: a digest forged into it is what comes back.
  @Test func anUnchangedStampServesTheKeptDigest() throws {
    let tree = try TemporaryFolder()
    try tree.write("tool", "first")
    try tree.write(".duet/keep", "")
    let tool = tree.url.appendingPathComponent("tool").path
    let memo = tree.url.appendingPathComponent(".duet/program-digests")
    var first = FileDigestMemo(file: memo, now: Date().addingTimeInterval(60))
    #expect(first.digest(ofAbsolute: tool) == Digest.sha256("first"))
    first.save()
    let text = try String(contentsOf: memo, encoding: .utf8)
    let forged = String(repeating: "a", count: 64)
    try text.replacingOccurrences(of: Digest.sha256("first"), with: forged).write(to: memo, atomically: true, encoding: .utf8)
    var second = FileDigestMemo(file: memo)
    #expect(second.digest(ofAbsolute: tool) == forged)
  }

  /// `cp -p` of a same-size file: size and modification time as before, the
  /// change time new. The memo does not serve it.
  @Test func aSwapKeepingSizeAndTimeIsHashedAgain() throws {
    let tree = try TemporaryFolder()
    try tree.write("tool", "first")
    try tree.write(".duet/keep", "")
    let tool = tree.url.appendingPathComponent("tool").path
    let memo = tree.url.appendingPathComponent(".duet/program-digests")
    var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, tool, &times, 0) == 0)
    var first = FileDigestMemo(file: memo, now: Date().addingTimeInterval(60))
    #expect(first.digest(ofAbsolute: tool) == Digest.sha256("first"))
    first.save()
    // Rewritten in place (same inode), same size, the time set back.
    try tree.write("tool", "other")
    #expect(utimensat(AT_FDCWD, tool, &times, 0) == 0)
    var second = FileDigestMemo(file: memo, now: Date().addingTimeInterval(60))
    #expect(second.digest(ofAbsolute: tool) == Digest.sha256("other"))
  }

  /// A file changed just before it was hashed is not remembered: a write in
  /// the same tick of a coarse clock would keep the old digest otherwise.
  @Test func aFreshlyChangedFileIsNotRemembered() throws {
    let tree = try TemporaryFolder()
    try tree.write("tool", "first")
    try tree.write(".duet/keep", "")
    let memo = tree.url.appendingPathComponent(".duet/program-digests")
    var digests = FileDigestMemo(file: memo)
    #expect(digests.digest(ofAbsolute: tree.url.appendingPathComponent("tool").path) == Digest.sha256("first"))
    digests.save()
    #expect(!FileManager.default.fileExists(atPath: memo.path))
    // Not a regular file: no digest.
    #expect(digests.digest(ofAbsolute: tree.url.appendingPathComponent(".duet").path) == nil)
  }
}
