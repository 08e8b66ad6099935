/// "Did you mean" for keys, options and lane names: the nearest candidate by edit distance.
public enum Suggestion {
  /// The candidate nearest to `word`, if it is close enough to be a plausible typo.
  public static func nearest(to word: String, in candidates: [String]) -> String? {
    var best: (String, Int)?
    for candidate in candidates {
      let distance = editDistance(word.lowercased(), candidate.lowercased())
      if best == nil || distance < best!.1 { best = (candidate, distance) }
    }
    guard let (candidate, distance) = best else { return nil }
    let limit = max(2, min(word.count, candidate.count) / 3)
    return distance <= limit ? candidate : nil
  }

  /// `; did you mean 'x'?` or nothing, ready to append to a message.
  public static func hint(for word: String, in candidates: [String]) -> String {
    guard let near = nearest(to: word, in: candidates) else { return "" }
    return "; did you mean '\(near)'?"
  }

  /// Levenshtein distance over Unicode scalars.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
