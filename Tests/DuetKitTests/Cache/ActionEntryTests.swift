import Foundation
import Testing
@testable import DuetCache

/// The action entry: an REAPI `ActionResult` duet writes and reads back, its
/// signature, and every check made where an entry enters from a store.
@Suite("Action entries: encoding, signing, checks at the border")
struct ActionEntryTests {
  static let hashA = String(repeating: "a", count: 64)
  static let hashB = String(repeating: "b", count: 64)
  static let key = String(repeating: "c", count: 64)

  static func sample() -> ActionEntry {
    ActionEntry(key: key, lane: "xcframework", duetVersion: "0.1.0", strict: true, partial: false,
                outputs: [.file(path: "build/Kit.xcframework/Info.plist", digest: BlobDigest(hash: hashA, size: 12), mode: 0o644),
                          .file(path: "build/tool", digest: BlobDigest(hash: hashB, size: 300), mode: 0o755),
                          .link(path: "build/Current", target: "A")],
                log: BlobDigest(hash: hashB, size: 300))
  }

  /// What is written reads back as the same entry, unsigned and signed.
  @Test func roundTrip() throws {
    let entry = Self.sample()
    #expect(try ActionEntry.decode(entry.encoded()) == entry)
    let signed = entry.signed(with: Array("secret".utf8))
    #expect(try ActionEntry.decode(signed.encoded()) == signed)
  }

  /// A signature holds only for its key and only for the entry it was made
  /// over: another key, an unsigned entry, or any changed field fails it.
  @Test func signatureCoversTheWholeEntry() throws {
    let key = Array("secret".utf8)
    let signed = Self.sample().signed(with: key)
    #expect(signed.isSigned(by: key))
    #expect(!signed.isSigned(by: Array("other".utf8)))
    #expect(!Self.sample().isSigned(by: key))
    var moved = signed
    moved.outputs[0] = .file(path: "build/evil", digest: BlobDigest(hash: Self.hashA, size: 12), mode: 0o644)
    #expect(!moved.isSigned(by: key))
    var relaxed = signed
    relaxed.strict = false
    #expect(!relaxed.isSigned(by: key))
    var rekeyed = signed
    rekeyed.key = String(repeating: "d", count: 64)
    #expect(!rekeyed.isSigned(by: key))
  }

  /// RFC 4231's second test case: the HMAC is SHA-256's.
  @Test func hmacMatchesRFC4231() {
    let mac = HMACSHA256.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
    #expect(mac.map { String(format: "%02x", $0) }.joined() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    let long = HMACSHA256.mac(key: [UInt8](repeating: 0xAA, count: 131),
                              message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
    #expect(long.map { String(format: "%02x", $0) }.joined() == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
  }

  /// Entries that name a path outside the tree, a bad digest, a folder, a
  /// failing exit code, or are not duet's, are refused with why; so is every
  /// truncation of a good entry. Nothing traps.
  @Test func hostileEntriesAreRefused() {
    func entry(_ outputs: [ActionEntry.Output]) -> [UInt8] {
      var sample = Self.sample()
      sample.outputs = outputs
      return sample.encoded()
    }
    let digest = BlobDigest(hash: Self.hashA, size: 1)
    for path in ["../etc/passwd", "/etc/passwd", "build/../../x", "build//x", "./x", "", "a\nb"] {
      #expect(throws: ActionEntry.DecodeError.self, "\(path)") { try ActionEntry.decode(entry([.file(path: path, digest: digest, mode: 0o644)])) }
      #expect(throws: ActionEntry.DecodeError.self, "\(path)") { try ActionEntry.decode(entry([.link(path: path, target: "x")])) }
    }
    #expect(throws: ActionEntry.DecodeError.self) {
      try ActionEntry.decode(entry([.file(path: "x", digest: BlobDigest(hash: "../../x", size: 1), mode: 0o644)]))
    }
    #expect(throws: ActionEntry.DecodeError.self) {
      try ActionEntry.decode(entry([.file(path: "x", digest: digest, mode: 0o644), .file(path: "x", digest: digest, mode: 0o644)]))
    }
    // An ActionResult that is not duet's: only output_files and exit_code 0.
    var foreign = ProtobufWriter()
    foreign.message(2) { file in
      file.string(1, "x")
      file.message(2) { $0.string(1, Self.hashA); $0.varint(2, 1) }
    }
    #expect(throws: ActionEntry.DecodeError.self) { try ActionEntry.decode(foreign.bytes) }
    var failed = ProtobufWriter()
    failed.varint(4, 1)
    #expect(throws: ActionEntry.DecodeError.self) { try ActionEntry.decode(failed.bytes + Self.sample().encoded()) }
    let good = Self.sample().signed(with: [1, 2, 3]).encoded()
    for cut in 1..<good.count {
      // A truncation either fails to decode or (cut at a field boundary) decodes
      // to something else that the signature no longer covers.
      if let partial = try? ActionEntry.decode(Array(good.prefix(cut))) { #expect(!partial.isSigned(by: [1, 2, 3]) || partial == Self.sample().signed(with: [1, 2, 3])) }
    }
    #expect(throws: ActionEntry.DecodeError.self) { try ActionEntry.decode([0xFF, 0xFF, 0xFF]) }
    #expect(throws: ActionEntry.DecodeError.self) { try ActionEntry.decode(Array("garbage, not protobuf".utf8)) }
  }
}
