/// A lane's newest recorded verdict (pass, flaky, cached, fail or timeout).
package struct LastVerdict: Sendable, Equatable {
  /// Decoded once, where the row is read (issue 54, item 4): the cache check
  /// never compares outcome strings. Nil when the store holds a word this duet
  /// never writes (a newer duet's, a hand edit, `PASS`): then no pass is served.
  package var outcome: LaneOutcome?
  package var fingerprint: String?
  /// The parts of that fingerprint, when the store kept them.
  package var parts: FingerprintParts?
  /// What the verdict was judged under: a pass serves only runs these conditions cover.
  package var judged: PassConditions
  /// When the newest run at this fingerprint passed only on a retry: how
  /// many of its attempts failed. A pass served from it is flaky evidence.
  package var retried: RetriedPass?
  init(outcome: LaneOutcome?, fingerprint: String?, parts: FingerprintParts? = nil, judged: PassConditions = PassConditions()) {
    self.outcome = outcome
    self.fingerprint = fingerprint
    self.parts = parts
    self.judged = judged
  }

  package var passed: Bool { outcome == .pass || outcome == .flaky || outcome == .cached }
}
