/// Nearest-rank percentiles and the median, as `duet stats` and `duet report`
/// compute them.
enum NearestRank {
  /// The nearest-rank p50 and p95 of `values` (not empty) by two selections,
  /// not a sort: the window may hold thousands of values a lane. Reorders `values`.
  static func percentiles(_ values: inout [Double]) -> (p50: Double, p95: Double) {
    let p50 = rank(0.5, of: values.count), p95 = Swift.max(p50, rank(0.95, of: values.count))
    select(p50, in: &values, 0..<values.count)
    select(p95, in: &values, p50..<values.count)
    return (values[p50], values[p95])
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
  }

  /// The nearest-rank percentile: the smallest value with at least `p` of the values at or below it.
  static func percentile(_ values: [Double], _ p: Double) -> Double {
    percentile(sorted: values.sorted(), p)
  }

  static func percentile(sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[rank(p, of: sorted.count)]
  }

  /// The index of the nearest-rank `p` percentile among `count` sorted values.
  static func rank(_ p: Double, of count: Int) -> Int {
    Swift.max(0, Swift.min(count - 1, Int((p * Double(count)).rounded(.up)) - 1))
  }

  /// Quickselect: afterwards `values[k]` is what a sort would put there, with
  /// no larger value before it and no smaller one after it, within `range`.
  static func select(_ k: Int, in values: inout [Double], _ range: Range<Int>) {
    var low = range.lowerBound, high = range.upperBound - 1
    while low < high {
      // The median of three as the pivot, so sorted input is no worst case.
      let middle = low + (high - low) / 2
      if values[middle] < values[low] { values.swapAt(middle, low) }
      if values[high] < values[low] { values.swapAt(high, low) }
      if values[high] < values[middle] { values.swapAt(high, middle) }
      let pivot = values[middle]
      var i = low, j = high
      while i <= j {
        while values[i] < pivot { i += 1 }
        while pivot < values[j] { j -= 1 }
        if i <= j {
          values.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      if k <= j { high = j } else if k >= i { low = i } else { return }
    }
  }
}
