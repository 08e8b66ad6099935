import DuetSupport

/// Whether two globs can match one file, decided from the patterns alone (no
/// tree is walked): two lanes whose `reports:` could both match a file would
/// each record the other's test cases, so such lanes must never run at once.
///
/// Exact for the dialect as `Glob.expand(kind: .files)` walks it: `*` and `?`
/// within a segment, `**` zero or more visible segments (and a trailing `**`
/// at least one, since a file is never the folder `**` starts from), a hidden
/// name only for a segment written with a leading `.`, `[` a plain character.
/// Both tests are tables filled from the ends backwards, one row kept at a
/// time, so a long pattern costs time in proportion to the two lengths'
/// product and memory in proportion to one of them, never recursion.
extension Glob {
  func sharesAFile(with other: Glob) -> Bool {
    // A glob of no segments (`.`) names the root, never a file.
    guard !escapes, !other.escapes, !segments.isEmpty, !other.segments.isEmpty else { return false }
    return Glob.pathsMeet(Glob.fileSegments(segments), Glob.fileSegments(other.segments))
  }

  /// A trailing `**` matches files below its folder only: as `**/*`.
  static func fileSegments(_ segments: [String]) -> [String] {
    segments.last == "**" ? segments + ["*"] : segments
  }

  /// Whether some path of segments matches both `a` and `b`.
  static func pathsMeet(_ a: [String], _ b: [String]) -> Bool {
    let p = a.count, q = b.count
    // below[j]: a[i+1...] and b[j...] share a path; row[j]: a[i...] and b[j...].
    var below = [Bool](repeating: false, count: q + 1)
    below[q] = true
    for j in stride(from: q - 1, through: 0, by: -1) { below[j] = b[j] == "**" && below[j + 1] }
    for i in stride(from: p - 1, through: 0, by: -1) {
      var row = [Bool](repeating: false, count: q + 1)
      // b used up: only `**`s (taking nothing) may be left of a.
      row[q] = a[i] == "**" && below[q]
      for j in stride(from: q - 1, through: 0, by: -1) {
        if a[i] == "**" {
          // Takes nothing, or takes the segment b[j] matches (a visible one) and stays.
          row[j] = below[j] || ((b[j] == "**" || takesVisible(b[j])) && row[j + 1])
        }
        if !row[j] && b[j] == "**" {
          row[j] = row[j + 1] || (takesVisible(a[i]) && below[j])
        }
        if !row[j] && a[i] != "**" && b[j] != "**" {
          row[j] = below[j + 1] && segmentsMeet(a[i], b[j])
        }
      }
      below = row
    }
    return below[0]
  }

  /// Whether the segment pattern matches some visible name (one `**` may take).
  static func takesVisible(_ segment: String) -> Bool { !segment.hasPrefix(".") }

  /// Whether some one name (not empty) matches both segment patterns, with
  /// the hidden-name rule of `Glob.segmentMatches`.
  static func segmentsMeet(_ x: String, _ y: String) -> Bool {
    // A name starting with `.` matches only a pattern written with a leading `.`.
    guard x.hasPrefix(".") == y.hasPrefix(".") else { return false }
    return WildcardMeet(Array(x.unicodeScalars), Array(y.unicodeScalars), noLeadingDot: !x.hasPrefix(".")).meet()
  }
}

/// Two segment patterns (`*`, `?`, the rest literal) meet when one name both
/// match: a table over the positions in each and whether a character has been
/// taken yet (a name is never empty, and may have to not start with `.`).
private struct WildcardMeet {
  let x: [Unicode.Scalar]
  let y: [Unicode.Scalar]
  let noLeadingDot: Bool

  init(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar], noLeadingDot: Bool) {
    self.x = x
    self.y = y
    self.noLeadingDot = noLeadingDot
  }

  /// Whether a character both take may be `c` (nil: a `?` or `*` chooses one).
  func allowed(_ c: Unicode.Scalar?, started: Bool) -> Bool {
    c != "." || started || !noLeadingDot
  }

  /// The character both patterns take at (k, l) when neither is a staying
  /// `*`: nil when they cannot take the same one; `.some(nil)` for any.
  func common(_ a: Unicode.Scalar, _ b: Unicode.Scalar) -> Unicode.Scalar?? {
    if a == "?" { return .some(b == "?" ? nil : b) }
    if b == "?" || a == b { return .some(a) }
    return nil
  }

  func meet() -> Bool {
    let m = x.count, n = y.count
    // Rows k + 1 (below) and k (row), for started = true (T) and false (F).
    var belowT = [Bool](repeating: false, count: n + 1), belowF = belowT
    var rowT = belowT, rowF = belowT
    for k in stride(from: m, through: 0, by: -1) {
      for l in stride(from: n, through: 0, by: -1) {
        rowT[l] = cell(k, l, started: true, rowT: rowT, belowT: belowT, row: rowT, below: belowT)
      }
      for l in stride(from: n, through: 0, by: -1) {
        rowF[l] = cell(k, l, started: false, rowT: rowT, belowT: belowT, row: rowF, below: belowF)
      }
      swap(&belowT, &rowT)
      swap(&belowF, &rowF)
    }
    return belowF[0]
  }

  /// One cell: x[k...] and y[l...] match one rest of a name, `started` saying
  /// whether the name has a character before that rest. The rows are borrowed
  /// (`borrowing`), so filling a row never copies it.
  func cell(_ k: Int, _ l: Int, started: Bool, rowT: borrowing [Bool], belowT: borrowing [Bool], row: borrowing [Bool], below: borrowing [Bool]) -> Bool {
    let m = x.count, n = y.count
    if k == m && l == n { return started }
    let xStar = k < m && x[k] == "*", yStar = l < n && y[l] == "*"
    // A `*` that takes nothing more.
    if xStar && below[l] { return true }
    if yStar && row[l + 1] { return true }
    // Both `*` take one character (any, so never a leading dot) and stay.
    if xStar && yStar && !started && rowT[l] { return true }
    // One `*` takes the other's character and stays.
    if xStar && l < n && !yStar && allowed(y[l] == "?" ? nil : y[l], started: started) && rowT[l + 1] { return true }
    if yStar && k < m && !xStar && allowed(x[k] == "?" ? nil : x[k], started: started) && belowT[l] { return true }
    // Both take one character and move on.
    if k < m && l < n && !xStar && !yStar, let c = common(x[k], y[l]), allowed(c, started: started) {
      return belowT[l + 1]
    }
    return false
  }
}
