import DuetCache
import DuetOutput
import DuetSupport
import Foundation

/// `duet cache stats|prune|verify`: the local content-addressed store under
/// `.duet/cache`, which holds the outputs and logs of passes.
struct CacheRequest: Sendable {
  enum Action: Sendable, Equatable {
    case stats
    /// Trim to at most this many bytes, least recently used first.
    case prune(maxBytes: Int)
    case verify
  }

  var root: URL
  var action: Action
}

enum CacheResponse: CommandResponse {
  case stats(path: String, StoreMaintenance.Stats)
  case pruned(path: String, StoreMaintenance.Pruned, maxBytes: Int)
  case verified(path: String, StoreMaintenance.Verified)

  /// `verify` exits 1 when it found damaged blobs (and removed them).
  var exitCode: Int32 {
    if case .verified(_, let verified) = self, !verified.damaged.isEmpty { return ExitCode.failed }
    return ExitCode.pass
  }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json {
      printout.json(ReportJSON.text(CacheJSON(self)))
      return printout
    }
    switch self {
    case .stats(let path, let stats):
      printout.out("duet cache: \(path): \(stats.blobs) blob(s), \(ByteCount.text(stats.bytes)); \(stats.entries) entr\(stats.entries == 1 ? "y" : "ies")")
    case .pruned(let path, let pruned, let maxBytes):
      printout.out("duet cache prune: removed \(pruned.blobs) blob(s) (\(ByteCount.text(pruned.bytes))) and \(pruned.entries) entr\(pruned.entries == 1 ? "y" : "ies") from \(path); "
                   + "\(ByteCount.text(pruned.left.bytes)) left of at most \(ByteCount.text(maxBytes))")
    case .verified(let path, let verified):
      if verified.damaged.isEmpty {
        printout.out("duet cache verify: \(verified.checked) blob(s), \(ByteCount.text(verified.bytes)) in \(path): every blob holds the bytes it is named by")
      } else {
        printout.out("duet cache verify: FAIL: \(verified.damaged.count) of \(verified.checked) blob(s) in \(path) did not hold the bytes they are named by, and were removed:")
        for hash in verified.damaged { printout.out("  damaged: \(hash)") }
      }
    }
    return printout
  }
}

/// `--json` of `duet cache`.
struct CacheJSON: Encodable {
  var command: String
  var path: String
  var blobs: Int
  var bytes: Int
  var entries: Int?
  var removedBlobs: Int?
  var removedBytes: Int?
  var removedEntries: Int?
  var damaged: [String]?

  init(_ response: CacheResponse) {
    switch response {
    case .stats(let path, let stats):
      (command, self.path, blobs, bytes, entries) = ("stats", path, stats.blobs, stats.bytes, stats.entries)
    case .pruned(let path, let pruned, _):
      (command, self.path, blobs, bytes, entries) = ("prune", path, pruned.left.blobs, pruned.left.bytes, pruned.left.entries)
      (removedBlobs, removedBytes, removedEntries) = (pruned.blobs, pruned.bytes, pruned.entries)
    case .verified(let path, let verified):
      (command, self.path, blobs, bytes, damaged) = ("verify", path, verified.checked, verified.bytes, verified.damaged)
    }
  }
}

/// `1.5 MiB`: a size for people; `500M`, `2G`, `1048576` read back.
enum ByteCount {
  /// Bytes from `N`, `NK`, `NM`, `NG` or `NT` (powers of 1024, `KiB`/`KB` spellings
  /// too); nil for anything else or past 2^62.
  static func parse(_ text: String) -> Int? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
    guard !digits.isEmpty, digits.count <= 18, let number = Int(digits) else { return nil }
    let unit = trimmed.dropFirst(digits.count).uppercased()
    let shifts: [String: Int] = ["": 0, "B": 0, "K": 10, "KB": 10, "KIB": 10, "M": 20, "MB": 20, "MIB": 20,
                                 "G": 30, "GB": 30, "GIB": 30, "T": 40, "TB": 40, "TIB": 40]
    guard let shift = shifts[unit], number <= (1 << 62) >> shift else { return nil }
    return number << shift
  }

  static func text(_ bytes: Int) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
  }
}

/// Throws `CommandFailure` when `.duet` is not a real folder (a link planted there).
func cache(_ request: CacheRequest) throws -> CacheResponse {
  do { try PathGuard.checkStateFolder(root: request.root) } catch {
    throw CommandFailure(message: "duet cache: error: \(error)", code: ExitCode.failed)
  }
  let store = ContentStore(folder: ContentStore.defaultFolder(root: request.root))
  let path = ".duet/cache"
  switch request.action {
  case .stats: return .stats(path: path, StoreMaintenance.stats(store))
  case .prune(let maxBytes): return .pruned(path: path, StoreMaintenance.prune(store, maxBytes: maxBytes), maxBytes: maxBytes)
  case .verify: return .verified(path: path, StoreMaintenance.verify(store))
  }
}
