/// "Did you mean" for keys, options and lane names: the nearest candidate by edit distance.
package enum Suggestion {
  /// The candidate nearest to `word`, if it is close enough to be a plausible typo.
  package static func nearest(to word: String, in candidates: [String]) -> String? {
    var best: (String, Int)?
    for candidate in candidates {
      let distance = editDistance(word.lowercased(), candidate.lowercased())
      if best == nil || distance < best!.1 { best = (candidate, distance) }
    }
    guard let (candidate, distance) = best else { return nil }
    let limit = max(1, min(word.count, candidate.count) / 3)
    return distance <= limit && distance < word.count ? candidate : nil
  }

  /// `; did you mean 'x'?` or nothing, ready to append to a message.
  package static func hint(for word: String, in candidates: [String]) -> String {
    guard let near = nearest(to: word, in: candidates) else { return "" }
    return "; did you mean '\(near)'?"
  }

  /// Edit distance over Unicode scalars where swapping two neighbours costs one
  /// (optimal string alignment), so `--jbos` is one step from `--jobs`.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
        }
      }
    }
    return table[a.count][b.count]
  }
}
