import DuetSupport

/// The test entries of one lane compiled once, so a run asks about 50,000
/// failed cases against a thousand entries in milliseconds rather than
/// matching every case against every entry. It answers exactly as
/// `QuarantineEntry.matches(test:)` does for any of them: a name equal to an
/// entry's text (as Swift compares strings) through a hash set; a glob's `*`
/// and `?` over Unicode scalars, tried only on the globs whose literal
/// prefix (the text before their first wildcard) starts the name, found by
/// walking a trie of those prefixes along the name's UTF-8 bytes.
struct QuarantineMatcher: Sendable {
  /// Every entry's text: `==` matches any entry, glob or exact.
  private var names: Set<String> = []
  /// The globs (not `exact`, holding `*` or `?`), as UTF-8.
  private var globs: [[UInt8]] = []
  /// The trie of the globs' literal prefixes, node 0 the root: each node's
  /// children as (byte, node) pairs, scanned (a prefix trie branches little),
  /// and the globs whose prefix ends there.
  private var children: [[(byte: UInt8, node: Int)]] = [[]]
  private var ending: [[Int]] = [[]]

  /// The test entries among `entries` (lane-level ones name no test and are left out).
  init(_ entries: [QuarantineEntry]) {
    for entry in entries {
      guard let test = entry.test else { continue }
      names.insert(test)
      guard entry.isGlob else { continue }
      let bytes = Array(test.utf8)
      var node = 0
      for byte in bytes {
        if byte == UInt8(ascii: "*") || byte == UInt8(ascii: "?") { break }
        if let next = children[node].first(where: { $0.byte == byte })?.node {
          node = next
        } else {
          children.append([])
          ending.append([])
          children[node].append((byte, children.count - 1))
          node = children.count - 1
        }
      }
      ending[node].append(globs.count)
      globs.append(bytes)
    }
  }

  /// Whether an entry matches the case `fullName` (`classname.name`).
  func matches(_ fullName: String) -> Bool {
    if names.contains(fullName) { return true }
    // A wildcard never takes `.git` or `.duet` (`Glob.HiddenNames.ordinary`): only `==` does.
    guard !globs.isEmpty, !Glob.stateFolders.contains(fullName) else { return false }
    return fullName.utf8.withContiguousStorageIfAvailable(globMatches) ?? globMatches(Array(fullName.utf8).withUnsafeBufferPointer { $0 })
  }

  private func globMatches(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
    var node = 0, depth = 0
    while true {
      for glob in ending[node] where QuarantineMatcher.wildcardMatch(globs[glob], name, from: depth) { return true }
      guard depth < name.count, let next = children[node].first(where: { $0.byte == name[depth] })?.node else { return false }
      node = next
      depth += 1
    }
  }

  /// `Glob.segmentMatches`'s scan from `start`, where pattern and name already
  /// agree on the bytes before it: `*` any run of scalars, `?` one scalar (a
  /// lead byte and its continuation bytes), anything else itself. The name is
  /// only ever entered at a scalar's first byte, so comparing bytes compares scalars.
  private static func wildcardMatch(_ p: [UInt8], _ n: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    func nextScalar(_ i: Int) -> Int {
      var i = i + 1
      while i < n.count && n[i] & 0xC0 == 0x80 { i += 1 }
      return i
    }
    var pi = start, ni = start, starP = -1, starN = 0
    while ni < n.count {
      if pi < p.count && p[pi] == UInt8(ascii: "?") {
        pi += 1; ni = nextScalar(ni)
      } else if pi < p.count && p[pi] == n[ni] {
        // As in `segmentMatches`, a `*` facing a `*` of the name is taken as that character.
        pi += 1; ni += 1
      } else if pi < p.count && p[pi] == UInt8(ascii: "*") {
        starP = pi; starN = ni; pi += 1
      } else if starP >= 0 {
        pi = starP + 1; starN = nextScalar(starN); ni = starN
      } else {
        return false
      }
    }
    while pi < p.count && p[pi] == UInt8(ascii: "*") { pi += 1 }
    return pi == p.count
  }
}
