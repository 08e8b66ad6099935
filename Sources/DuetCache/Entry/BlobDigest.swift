/// A blob's name in a content-addressed store: the SHA-256 of its bytes and
/// their count, as REAPI's `Digest` carries them.
package struct BlobDigest: Sendable, Hashable, CustomStringConvertible {
  /// 64 lowercase hex digits.
  package var hash: String
  var size: Int

  /// `sha256:<hex>/<size>`, as messages show it.
  package var description: String { "sha256:\(hash)/\(size)" }

  /// Whether `text` is 64 lowercase hex digits: the only names the stores accept,
  /// so a hostile entry can never name a path through a digest.
  static func isHash(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
  }
}
