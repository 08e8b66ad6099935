/// A pass that came only on a retry: `failed` of `attempts` attempts failed.
package struct RetriedPass: Sendable, Equatable {
  var failed: Int
  var attempts: Int

  /// `flaky at this fingerprint: 1 of 2 attempts failed`, as the dry run and the run say it.
  package var words: String { "flaky at this fingerprint: \(failed) of \(attempts) attempts failed" }
}
