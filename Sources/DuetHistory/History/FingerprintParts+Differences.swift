import DuetSupport

extension FingerprintParts {
  /// Every part in which these parts (this checkout's) differ from `there`
  /// (another checkout's or machine's run of the lane), in words, most telling
  /// first: `src/a.txt differs`, `FLAVOR differs`, `requires kotlinc:
  /// 3f2a9c1b4d5e6f70 here, 81d0e4aa9f0b1c2d there`. Programs are compared by the
  /// digest of their bytes, so one installed at another path is no difference.
  /// Empty when the parts are equal.
  package func differences(from there: FingerprintParts) -> [String] {
    var found: [String] = []
    if platform != there.platform { found.append("platform: \(platform) here, \(there.platform) there") }
    if command != there.command { found.append("the command differs") }
    if env != there.env { found.append("its env: differs") }
    if dir != there.dir { found.append("dir: \(dir) here, \(there.dir) there") }
    if lane != there.lane { found.append("lane: \(lane ?? "none") here, \(there.lane ?? "none") there") }
    if timeout != there.timeout { found.append("timeout: \(timeout ?? "none") s here, \(there.timeout ?? "none") s there") }
    if duet != there.duet { found.append("duet: \(duet ?? "none") here, \(there.duet ?? "none") there") }
    if changedList != there.changedList { found.append("the change list (--since) differs") }
    found += FingerprintParts.changedPaths(files, since: there.files).map { path in
      let here = files.contains { Array($0.path.utf8) == Array(path.utf8) }, away = there.files.contains { Array($0.path.utf8) == Array(path.utf8) }
      return here && away ? "\(path) differs" : here ? "\(path) only here" : "\(path) only there"
    }
    for name in Set(envInputs.keys).union(there.envInputs.keys).sorted() where envInputs[name] != there.envInputs[name] {
      found.append(FingerprintParts.envInputDifference(name, here: envInputs[name], there: there.envInputs[name]))
    }
    for name in Set(programs.keys).union(there.programs.keys).sorted() where programs[name] != there.programs[name] {
      found.append("requires \(name): \(FingerprintParts.shortIdentity(programs[name])) here, \(FingerprintParts.shortIdentity(there.programs[name])) there")
    }
    for name in Set(needs.keys).union(there.needs.keys).sorted() where needs[name] != there.needs[name] {
      found.append("need \(name)'s fingerprint differs")
    }
    if git != there.git { found.append("the commit or the uncommitted changes differ (a lane without inputs)") }
    return found
  }

  /// `FLAVOR differs`; said otherwise when one side hashed it under the team's
  /// key and the other under duet's own (`DUET_REMOTE_CACHE_KEY` set on one side only).
  static func envInputDifference(_ name: String, here: String?, there: String?) -> String {
    func scheme(_ part: String?) -> String? { part?.split(separator: ":", maxSplits: 1).first.map(String.init) }
    guard let here, let there, here != "unset", there != "unset" else {
      return "\(name): \(here == nil || here == "unset" ? "unset" : "set") here, \(there == nil || there == "unset" ? "unset" : "set") there"
    }
    if scheme(here) != scheme(there), [scheme(here), scheme(there)].allSatisfy({ $0 == "hmac-team" || $0 == "hmac-duet" } as (String?) -> Bool) {
      return "\(name) is hashed under another key (DUET_REMOTE_CACHE_KEY is set on one side only), so its value cannot be compared"
    }
    return "\(name) differs"
  }

  /// A program's identity as messages show it: 16 hex digits of its digest, or `missing`.
  static func shortIdentity(_ identity: String?) -> String {
    guard let identity else { return "not required" }
    guard let colon = identity.firstIndex(of: ":") else { return identity }
    return String(identity[identity.index(after: colon)...].prefix(16))
  }
}
