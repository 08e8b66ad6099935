import DuetSupport

/// Reads a shell lane's output as it streams for the shell's own word that
/// it could not start a process: bash's `fork: retry: Resource temporarily
/// unavailable` and `fork: Resource temporarily unavailable`, dash's and
/// bash's `Cannot fork`, `fork: Cannot allocate memory`. The machine ran out
/// (`ulimit -u`, memory), not the lane: the attempt is `error`, whatever the
/// shell's exit status (dash exits 2), so it is neither a failure nor flaky
/// evidence. Only a line's first `window` bytes are looked at, where a shell
/// writes its name and the message; a line is kept no longer than that.
struct ForkFailureScanner: Sendable {
  static let window = 256
  static let phrases = ["fork: retry: Resource temporarily unavailable", "fork: Resource temporarily unavailable",
                        "Cannot fork", "fork: Cannot allocate memory"]
  private var lines = StreamedLines(limit: window)
  /// The first such line, cut to 200 characters.
  private(set) var found: String?

  init() {}

  mutating func feed(_ bytes: UnsafeRawBufferPointer) {
    guard found == nil else { return }
    var hit: String?
    _ = lines.feed(bytes) { line in hit = Self.judge(line); return hit != nil }
    found = hit
  }

  /// Judges what is left once the output has ended.
  mutating func finish() {
    guard found == nil else { return }
    var hit: String?
    _ = lines.finish { line in hit = Self.judge(line); return hit != nil }
    found = hit
  }

  private static func judge(_ line: [UInt8]) -> String? {
    // Every phrase holds "ork": most lines are passed over without making a String.
    guard line.count >= 11, line.indices.dropLast(2).contains(where: { line[$0] == 0x6F && line[$0 + 1] == 0x72 && line[$0 + 2] == 0x6B }) else { return nil }
    let text = String(decoding: line, as: UTF8.self)
    guard ForkFailureScanner.phrases.contains(where: text.contains) else { return nil }
    return text.count > 200 ? String(text.prefix(200)) + "…" : text
  }
}
