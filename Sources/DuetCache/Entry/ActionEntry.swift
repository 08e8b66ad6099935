import DuetSupport

/// What a lane's pass produced, under its action key: each output file's
/// tree-relative path, mode and digest (the bytes are in the content-addressed
/// store), each output link's target, and the log of the attempt that passed.
///
/// On the wire and on disk it is an REAPI v2 `ActionResult` in binary protobuf,
/// so bazel-remote (which validates `/ac/` uploads), nginx WebDAV or a hosted
/// cache keeps it as it is: `output_files` (2), `output_symlinks` (12),
/// `stdout_digest` (6) for the log, and `execution_metadata` (9) with `worker`
/// naming duet and one `auxiliary_metadata` `Any` of type `duet.cache.v1.Entry`
/// carrying duet's own fields: the action key, the lane, duet's version, the
/// conditions the pass was judged under, and the signature.
package struct ActionEntry: Sendable, Equatable {
  package enum Output: Sendable, Equatable {
    /// A regular file; `mode` holds its permission bits (`0o755`).
    case file(path: String, digest: BlobDigest, mode: UInt32)
    /// A symbolic link, kept by its target text.
    case link(path: String, target: String)

    var path: String {
      switch self {
      case .file(let path, _, _), .link(let path, _): return path
      }
    }
  }

  /// The action key the entry is stored under (64 hex digits).
  package var key: String
  var lane: String
  var duetVersion: String
  /// Judged under `--strict` in a run that changed no tracked file.
  package var strict: Bool
  /// Judged on a change list (`--since`): never serves a whole-tree run.
  package var partial: Bool
  package var outputs: [Output]
  /// The log of the attempt that passed; nil when it printed nothing.
  package var log: BlobDigest?
  /// HMAC-SHA256 of the entry without it, when a key signed the entry.
  var signature: [UInt8]?

  package init(key: String, lane: String, duetVersion: String, strict: Bool, partial: Bool, outputs: [Output], log: BlobDigest?) {
    self.key = key
    self.lane = lane
    self.duetVersion = duetVersion
    self.strict = strict
    self.partial = partial
    self.outputs = outputs
    self.log = log
  }

  /// Every blob the entry names: the output files' and the log's.
  var blobs: [BlobDigest] {
    var seen = Set<BlobDigest>()
    var found: [BlobDigest] = []
    for output in outputs {
      if case .file(_, let digest, _) = output, seen.insert(digest).inserted { found.append(digest) }
    }
    if let log, seen.insert(log).inserted { found.append(log) }
    return found
  }

  /// The type URL of duet's own message inside `auxiliary_metadata`.
  static let typeURL = "type.googleapis.com/duet.cache.v1.Entry"
  /// The largest entry read: an entry lists paths and digests, not bytes.
  package static let maxEncodedSize = 16 << 20
  /// The most outputs one entry may list.
  package static let maxOutputs = 100_000
  /// The permission bits an output keeps: everything but set-user-ID and
  /// set-group-ID, which a cache (an entry from a shared server, restored by a
  /// CI job running as root) must never hand out; Bazel keeps less still.
  static let keptModeBits: UInt32 = 0o1777

  /// The largest blob an entry may name: 64 GiB.
  static let maxBlobSize = 64 << 30

  // MARK: - Signing

  /// The entry signed with `key`.
  func signed(with key: [UInt8]) -> ActionEntry {
    var copy = self
    copy.signature = HMACSHA256.mac(key: key, message: unsignedBytes)
    return copy
  }

  /// Whether the entry carries a signature that `key` made.
  func isSigned(by key: [UInt8]) -> Bool {
    guard let signature else { return false }
    return HMACSHA256.equal(signature, HMACSHA256.mac(key: key, message: unsignedBytes))
  }

  /// The bytes a signature covers: the whole entry, encoded without it.
  private var unsignedBytes: [UInt8] {
    var copy = self
    copy.signature = nil
    return copy.encoded()
  }

  // MARK: - Encoding

  /// The entry as a binary `ActionResult`.
  package func encoded() -> [UInt8] {
    var writer = ProtobufWriter()
    for output in outputs {
      guard case .file(let path, let digest, let mode) = output else { continue }
      writer.message(2) { file in
        file.string(1, path)
        file.message(2) { ActionEntry.write(digest, into: &$0) }
        file.bool(4, mode & 0o111 != 0)
        file.message(7) { properties in properties.message(3) { $0.varint(1, UInt64(mode)) } }
      }
    }
    // exit_code (4) is 0, the default, so it is not written.
    if let log { writer.message(6) { ActionEntry.write(log, into: &$0) } }
    writer.message(9) { metadata in
      metadata.string(1, "duet \(duetVersion)")
      metadata.message(11) { any in
        any.string(1, ActionEntry.typeURL)
        any.message(2) { own in
          own.varint(1, 1)
          own.string(2, key)
          own.string(3, lane)
          own.string(4, duetVersion)
          own.bool(5, strict)
          own.bool(6, partial)
          if let signature { own.bytes(7, signature) }
        }
      }
    }
    for output in outputs {
      guard case .link(let path, let target) = output else { continue }
      writer.message(12) { link in
        link.string(1, path)
        link.string(2, target)
      }
    }
    return writer.bytes
  }

  private static func write(_ digest: BlobDigest, into writer: inout ProtobufWriter) {
    writer.string(1, digest.hash)
    writer.varint(2, UInt64(digest.size))
  }

  /// Why bytes read from a store are not an entry duet may use.
  /// Why an entry is refused: a terminal line, so a path the entry names is
  /// escaped once, as the reason is made.
  package enum DecodeError: Error, Equatable, CustomStringConvertible {
    case malformed(TerminalLine)

    package var description: String {
      switch self {
      case .malformed(let why): return why.text
      }
    }
  }

  /// Reads an entry back, checking everything at the border: the wire format,
  /// that it is duet's (its own message present, format 1), every path
  /// tree-relative without `..`, every digest 64 hex digits with a size in
  /// range, modes in range, no path twice, and counts bounded.
  package static func decode(_ bytes: [UInt8]) throws(DecodeError) -> ActionEntry {
    guard bytes.count <= maxEncodedSize else { throw .malformed("larger than \(maxEncodedSize) bytes") }
    guard let fields = ProtobufReader.fields(bytes[...]) else { throw .malformed("not an ActionResult (protobuf)") }
    var outputs: [Output] = []
    var log: BlobDigest?
    var own: [(number: Int, value: ProtobufField)]?
    for (number, value) in fields {
      switch number {
      case 2:
        guard let slice = value.slice else { throw .malformed("an output file is not a message") }
        outputs.append(try outputFile(slice))
      case 12, 10:
        guard let slice = value.slice, let link = ProtobufReader.fields(slice) else { throw .malformed("an output link is not a message") }
        let path = link.first { $0.number == 1 }?.value.text, target = link.first { $0.number == 2 }?.value.text
        guard let path, let target else { throw .malformed("an output link lacks its path or target") }
        outputs.append(.link(path: try checkedPath(path), target: target))
      case 3, 11:
        throw .malformed("it lists output folders, which duet never writes")
      case 4:
        guard value.number == 0 else { throw .malformed("its exit code is not 0") }
      case 6:
        guard let slice = value.slice else { throw .malformed("the log digest is not a message") }
        log = try digest(slice)
      case 9:
        guard let slice = value.slice, let metadata = ProtobufReader.fields(slice) else { throw .malformed("its metadata is not a message") }
        for (field, item) in metadata where field == 11 {
          guard let any = item.slice.flatMap({ ProtobufReader.fields($0) }) else { continue }
          if any.first(where: { $0.number == 1 })?.value.text == typeURL, let inner = any.first(where: { $0.number == 2 })?.value.slice {
            own = ProtobufReader.fields(inner)
          }
        }
      default:
        continue
      }
      guard outputs.count <= maxOutputs else { throw .malformed("more than \(maxOutputs) outputs") }
    }
    guard let own else { throw .malformed("not written by duet (no duet.cache.v1.Entry in its metadata)") }
    func text(_ number: Int) -> String? { own.last { $0.number == number }?.value.text }
    func flag(_ number: Int) -> Bool { (own.last { $0.number == number }?.value.number ?? 0) != 0 }
    guard own.last(where: { $0.number == 1 })?.value.number == 1 else { throw .malformed("its duet entry format is not 1") }
    guard let key = text(2), BlobDigest.isHash(key), let lane = text(3), let version = text(4) else {
      throw .malformed("its duet entry lacks the key, lane or version")
    }
    var seen = Set<[UInt8]>()
    for output in outputs where !seen.insert(Array(output.path.utf8)).inserted {
      throw .malformed("it lists \(output.path) twice")
    }
    var entry = ActionEntry(key: key, lane: lane, duetVersion: version, strict: flag(5), partial: flag(6), outputs: outputs, log: log)
    if case .bytes(let signature)? = own.last(where: { $0.number == 7 })?.value { entry.signature = Array(signature) }
    return entry
  }

  private static func outputFile(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> Output {
    guard let fields = ProtobufReader.fields(bytes) else { throw .malformed("an output file is not a message") }
    guard let path = fields.first(where: { $0.number == 1 })?.value.text else { throw .malformed("an output file has no path") }
    guard let digestBytes = fields.first(where: { $0.number == 2 })?.value.slice else { throw .malformed("output \(path) has no digest") }
    let executable = (fields.first { $0.number == 4 }?.value.number ?? 0) != 0
    var mode: UInt32 = executable ? 0o755 : 0o644
    if let properties = fields.first(where: { $0.number == 7 })?.value.slice.flatMap({ ProtobufReader.fields($0) }),
       let unix = properties.first(where: { $0.number == 3 })?.value.slice.flatMap({ ProtobufReader.fields($0) }) {
      let value = unix.first { $0.number == 1 }?.value.number ?? 0
      guard value <= 0o7777 else { throw .malformed("output \(path) has mode \(value), past 0o7777") }
      mode = UInt32(value) & keptModeBits
    }
    return .file(path: try checkedPath(path), digest: try digest(digestBytes), mode: mode)
  }

  private static func digest(_ bytes: ArraySlice<UInt8>) throws(DecodeError) -> BlobDigest {
    guard let fields = ProtobufReader.fields(bytes), let hash = fields.first(where: { $0.number == 1 })?.value.text,
          BlobDigest.isHash(hash) else { throw .malformed("a digest is not 64 lowercase hex digits") }
    let size = fields.first { $0.number == 2 }?.value.number ?? 0
    guard size <= UInt64(maxBlobSize) else { throw .malformed("a blob of \(size) bytes, past \(maxBlobSize)") }
    return BlobDigest(hash: hash, size: Int(size))
  }

  /// A path an entry may name: relative, inside the tree, no `.`, `..` or empty
  /// segment, no NUL or control character.
  private static func checkedPath(_ path: String) throws(DecodeError) -> String {
    guard isEntryPath(path) else {
      throw .malformed("output path \"\(path)\" is not a path inside the tree")
    }
    return path
  }

  /// Whether an entry may name `path`: what `decode` accepts, so capture
  /// never stores an entry that no reader takes back.
  static func isEntryPath(_ path: String) -> Bool {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    return !path.isEmpty && !path.hasPrefix("/") && segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
      && !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
  }
}
