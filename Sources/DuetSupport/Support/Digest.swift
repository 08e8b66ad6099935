import Foundation

#if canImport(CryptoKit)
import CryptoKit
#elseif canImport(CCrypto)
import CCrypto
#endif

/// SHA-256 from a real library: CryptoKit on Apple platforms, OpenSSL's libcrypto elsewhere.
///
/// Fed incrementally, so a file of any size is hashed in constant memory.
package struct Digest: ~Copyable {
  #if canImport(CryptoKit)
  private var hasher = SHA256()
  #else
  private let context: OpaquePointer
  #endif

  package init() {
    #if canImport(CryptoKit)
    #else
    // EVP_MD_CTX_new only fails when memory is exhausted; nothing sensible remains then.
    guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto: out of memory") }
    EVP_DigestInit_ex(context, EVP_sha256(), nil)
    self.context = context
    #endif
  }

  deinit {
    #if !canImport(CryptoKit)
    EVP_MD_CTX_free(context)
    #endif
  }

  package mutating func update(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count > 0 else { return }
    #if canImport(CryptoKit)
    hasher.update(bufferPointer: bytes)
    #else
    EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
    #endif
  }

  mutating func update(_ data: Data) {
    data.withUnsafeBytes { update($0) }
  }

  package mutating func update(_ text: String) {
    var text = text
    text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
  }

  /// The digest so far as hex, leaving a fresh hasher in its place (for a
  /// digest kept behind a lock).
  package mutating func finishAndReset() -> String {
    let done = self
    self = Digest()
    return done.hex()
  }

  /// The digest as 64 lowercase hex digits; consumes the hasher.
  package consuming func hex() -> String {
    #if canImport(CryptoKit)
    return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    #else
    var output = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    EVP_DigestFinal_ex(context, &output, &length)
    return Digest.hexString(output)
    #endif
  }

  package static func hexString(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// SHA-256 of a string's UTF-8 bytes.
  package static func sha256(_ text: String) -> String {
    var digest = Digest()
    digest.update(text)
    return digest.hex()
  }

  /// SHA-256 of bytes in memory.
  package static func sha256(_ data: Data) -> String {
    var digest = Digest()
    digest.update(data)
    return digest.hex()
  }

  /// SHA-256 of a file, read in 256 KiB chunks.
  package static func sha256(fileAt path: String) throws -> String {
    var digest = Digest()
    try digest.update(fileAt: path)
    return digest.hex()
  }

  /// Feeds a whole file, streamed, into this hasher. Only a regular file is read
  /// (a final link, a FIFO or a device is refused: `PathGuard.openRegularFile`).
  package mutating func update(fileAt path: String) throws {
    let fd = try PathGuard.openRegularFile(atAbsolute: path, displayPath: path)
    defer { close(fd) }
    try update(readingFrom: fd, displayPath: path)
  }

  /// Feeds everything left to read on an open descriptor, in 256 KiB chunks.
  package mutating func update(readingFrom fd: Int32, displayPath path: String) throws(FileError) {
    let size = 256 * 1024
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = read(fd, buffer.baseAddress, size)
      if n < 0 {
        if errno == EINTR { continue }
        throw FileError.cannotRead(path, errno: errno)
      }
      if n == 0 { break }
      update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }
  }
}
