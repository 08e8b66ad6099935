import DuetSupport
import Foundation

/// HMAC-SHA256 (RFC 2104) over the one SHA-256 duet has, so an action entry
/// can be signed with `DUET_REMOTE_CACHE_KEY` without another C binding.
package enum HMACSHA256 {
  package static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
    let blockSize = 64
    var block = key.count > blockSize ? sha256(key) : key
    block += [UInt8](repeating: 0, count: blockSize - block.count)
    let inner = sha256(block.map { $0 ^ 0x36 } + message)
    return sha256(block.map { $0 ^ 0x5C } + inner)
  }

  /// Compares two MACs in time that does not depend on where they differ.
  static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for (x, y) in zip(a, b) { difference |= x ^ y }
    return difference == 0
  }

  private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var digest = Digest()
    bytes.withUnsafeBytes { digest.update($0) }
    return hexBytes(digest.hex())
  }

  static func hexBytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var high: UInt8?
    for c in hex.utf8 {
      let value = c >= 97 ? c - 87 : c - 48
      if let h = high { out.append(h << 4 | value); high = nil } else { high = value }
    }
    return out
  }
}
