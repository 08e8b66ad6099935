import DuetCache
import DuetSupport
import Foundation

/// What a built-in lane's fingerprint knows of duet's own code: its version and
/// the SHA-256 of the executable's bytes. A reinstalled identical duet (every
/// CI pipeline installs one afresh) keeps every pass; a rebuilt one with other
/// code does not. Hashing tens of megabytes costs a good part of a second, so
/// the digest is kept in `.duet/duet-binary` beside the executable's device,
/// inode, size, modification and change time, and hashed again only when one moved.
enum BinaryIdentity {
  /// The memo's file name under `.duet/`.
  static let memoName = "duet-binary"

  /// `0.1.0 sha256:<hex>`, or the version alone when the executable cannot be read.
  /// With `remember` false (`--dry-run`, which writes nothing) the memo is read, never written.
  static func identity(version: String, executable: String?, root: URL, remember: Bool = true) -> String {
    guard let executable, let digest = digest(of: executable, memo: root.appendingPathComponent(".duet/\(memoName)"), remember: remember) else {
      return version
    }
    return "\(version) sha256:\(digest)"
  }

  /// The identity worked out at the first call and kept for every later one: the
  /// code running is the code of the process's start, so a duet reinstalled
  /// while `duet watch` runs neither changes what its runs record nor is hashed
  /// again at each run.
  static func once(version: String, executable: String?, root: URL, remember: Bool = true) -> @Sendable () -> String {
    let kept = Locked<String?>(nil)
    return {
      if let known = kept.current { return known }
      let worked = identity(version: version, executable: executable, root: root, remember: remember)
      return kept.withLock { value in
        if let earlier = value { return earlier }
        value = worked
        return worked
      }
    }
  }

  /// The executable's digest, from the memo when its stamp (device, inode,
  /// size, modification and change time) still matches.
  static func digest(of executable: String, memo: URL, remember: Bool = true) -> String? {
    var digests = FileDigestMemo(file: memo, remember: remember)
    defer { digests.save() }
    return digests.digest(ofAbsolute: executable)
  }
}
