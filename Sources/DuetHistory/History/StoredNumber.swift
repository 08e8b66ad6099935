/// Numbers read back from a history store, made total where they enter: a
/// store is a file anyone can edit or merge, and a duration of 1e300, Inf or
/// -100 s must not trap a report (a Double-to-Int conversion) or index before
/// an array. Times are seconds since 1970 within [0, 1e11] (year 5138);
/// durations within [0, 1e9] s (31 years); anything else, or not finite, is 0.
/// `history merge` refuses such values by name before they are imported.
package enum StoredNumber {
  static let maxTime = 1e11
  static let maxDuration = 1e9

  /// A duration as readers may use it.
  package static func duration(_ value: Double?) -> Double {
    guard let value, value.isFinite, value >= 0 else { return 0 }
    return min(value, maxDuration)
  }

  /// A point in time as readers may use it.
  package static func time(_ value: Double?) -> Double {
    guard let value, value.isFinite, value >= 0 else { return 0 }
    return min(value, maxTime)
  }
}
