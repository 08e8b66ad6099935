/// Each key's flaky evidence so far, fed `LaneTally`s in run order, whose `lane`
/// indexes the keys: a lane's runs (`FlakyReport`), or a test's, folded per
/// attempt into lane runs (`TestFold`). `ranking` names and ranks them.
struct FlakyEvidence {
  /// A key whose newest evidence is older than this (7 days) has recovered.
  static let recoveryAge: Double = 7 * 24 * 3600

  struct Fingerprint { var passed = false, failed = false, lastPassed: Bool? }
  struct Figures {
    var runs = 0, failures = 0, flips = 0, retriesPassed = 0
    var lastSeen = -Double.infinity
    var fingerprints: [Fingerprint] = []
    var slots: [Int: Int] = [:]
    /// The newest fingerprint's slot, which nearly every run repeats.
    var lastFingerprint = -1, lastSlot = -1
  }
  var keys: [Figures] = []

  mutating func add(_ run: LaneTally) {
    while keys.count <= run.lane { keys.append(Figures()) }
    keys[run.lane].add(run)
  }

  /// The keys with flaky evidence, `names[i]` for the evidence of index `i`:
  /// flaky before recovered, then by evidence (flips, retries passed and mixed
  /// fingerprints), failures, the newest evidence, and the key's own order.
  func ranking<Key>(keys names: [Key], runsInWindow: Int, now: Double) -> FlakyRanking<Key> {
    var entries: [FlakyRanking<Key>.Entry] = []
    for (index, key) in keys.enumerated() where key.runs > 0 {
      // Every mixed fingerprint also flipped at least once, and the flip is its evidence in time.
      let mixed = key.fingerprints.filter { $0.passed && $0.failed }.count
      guard mixed > 0 || key.retriesPassed > 0 else { continue }
      entries.append(.init(key: names[index], runs: key.runs, failures: key.failures, flakyFingerprints: mixed, flips: key.flips,
                           retriesPassed: key.retriesPassed, lastSeen: key.lastSeen, recovered: now - key.lastSeen > Self.recoveryAge))
    }
    entries.sort { a, b in
      if a.recovered != b.recovered { return !a.recovered }
      let scoreA = a.flips + a.retriesPassed + a.flakyFingerprints, scoreB = b.flips + b.retriesPassed + b.flakyFingerprints
      if scoreA != scoreB { return scoreA > scoreB }
      if a.failures != b.failures { return a.failures > b.failures }
      if a.lastSeen != b.lastSeen { return a.lastSeen > b.lastSeen }
      return a.key < b.key
    }
    return FlakyRanking(entries: entries, runsInWindow: runsInWindow, keysSeen: keys.count(where: { $0.runs > 0 }))
  }
}

extension FlakyEvidence.Figures {
  mutating func add(_ run: LaneTally) {
    runs += 1
    failures += run.failed
    if run.failed > 0 && run.finalPassed {
      retriesPassed += 1
      lastSeen = max(lastSeen, run.started)
    }
    guard let fingerprint = run.fingerprint else { return }
    if fingerprint != lastFingerprint {
      lastFingerprint = fingerprint
      lastSlot = slots[fingerprint] ?? {
        fingerprints.append(.init())
        slots[fingerprint] = fingerprints.count - 1
        return fingerprints.count - 1
      }()
    }
    if run.anyPassed { fingerprints[lastSlot].passed = true }
    if run.failed > 0 { fingerprints[lastSlot].failed = true }
    if let previous = fingerprints[lastSlot].lastPassed, previous != run.finalPassed {
      flips += 1
      lastSeen = max(lastSeen, run.started)
    }
    fingerprints[lastSlot].lastPassed = run.finalPassed
  }
}
