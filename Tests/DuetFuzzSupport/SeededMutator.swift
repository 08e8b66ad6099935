import Foundation

/// A small, seeded pseudo-random generator (xorshift64*), so every fuzz case
/// can be replayed from its seed and case number on any machine.
package struct SeededRandom {
  private var state: UInt64

  package init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

  package mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 0x2545_F491_4F6C_DD1D
  }

  /// A number in `0..<bound` (bound > 0).
  package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

  package mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Turns a well-formed input into a hostile one: bytes flipped, the text cut
/// short, a slice nested many levels deep, a slice duplicated, or a hostile
/// value (a path out of the tree, a NUL, a huge number, an alias ring) spliced in.
/// One to three mutations per case; the work per case is bounded by the size
/// of the input and the fixed limits here, never by the clock.
package struct SeededMutator {
  enum Mutation: CaseIterable { case flip, truncate, nest, duplicate, splice }

  /// Text a hostile file would carry; each has broken something before.
  package static let hostile: [String] = [
    "../../../../etc/hostname", "/etc/passwd", "\0", "\u{FF}", "99999999999999999999h", "9223372036854775807",
    "-9223372036854775808", "1e308", "-0", "NaN", ".inf", "*x", "&x [*x, *x, *x]", "{c1}", "\"{a}\"", "yes", "~",
    "A=B", "\"\"", "? ", ": ", "- ", "---\n", "...\n", "!!binary", "%YAML 1.1\n", "\t", "\r\n", "#", "'", "\"",
    "9223372036854775807/9223372036854775807", "// mock-templates:end\n", "// input: sha256:", "sha256:zz",
    "\u{202E}", "💥", String(repeating: "a", count: 300),
  ]

  package var random: SeededRandom

  package init(seed: UInt64) { random = SeededRandom(seed: seed) }

  package mutating func mutate(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    for _ in 0...random.below(3) {
      switch random.pick(Mutation.allCases) {
      case .flip:
        guard !bytes.isEmpty else { continue }
        for _ in 0...random.below(4) {
          let index = random.below(bytes.count)
          bytes[index] = random.below(2) == 0 ? bytes[index] ^ (1 << UInt8(random.below(8))) : UInt8(random.below(256))
        }
      case .truncate:
        bytes = Array(bytes.prefix(random.below(bytes.count + 1)))
      case .nest:
        let (open, close) = random.pick([("[", "]"), ("{a: ", "}"), ("- ", ""), ("[{x: ", "}]")])
        let depth = random.pick([2, 16, 200, 511, 512, 513, 2_000])
        let at = random.below(bytes.count + 1)
        let opening = Array(String(repeating: open, count: depth).utf8)
        let closing = Array(String(repeating: close, count: random.below(2) == 0 ? depth : random.below(depth + 1)).utf8)
        let end = min(bytes.count, at + random.below(64))
        bytes = Array(bytes[..<at]) + opening + Array(bytes[at..<end]) + closing + Array(bytes[end...])
      case .duplicate:
        guard !bytes.isEmpty else { continue }
        let start = random.below(bytes.count)
        let slice = bytes[start..<min(bytes.count, start + 1 + random.below(512))]
        let at = random.below(bytes.count + 1)
        let times = random.pick([1, 2, 8])
        bytes.insert(contentsOf: Array(repeating: Array(slice), count: times).joined(), at: at)
      case .splice:
        let text = Array(random.pick(SeededMutator.hostile).utf8)
        let at = random.below(bytes.count + 1)
        let replace = random.below(2) == 0 ? 0 : min(bytes.count - at, random.below(16))
        bytes.replaceSubrange(at..<(at + replace), with: text)
      }
    }
    return bytes
  }
}
