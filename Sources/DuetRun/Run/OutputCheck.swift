/// What a passing attempt's declared outputs came to: worked out on a worker
/// (copying and hashing them into the content store takes seconds for a big
/// XCFramework), kept on the run loop's thread once the attempt counts.
struct OutputCheck {
  /// Declared outputs the attempt did not write: the attempt fails.
  var missing: [String]
  /// Run on the loop's thread when nothing is missing: keeps the captured
  /// files for the entry written after the run (`LaneCache.keep`).
  var keep: () -> Void = {}

}
