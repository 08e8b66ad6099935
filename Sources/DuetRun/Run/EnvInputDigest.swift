import DuetCache
import DuetSupport

/// What an `env-inputs:` variable's value becomes in a lane's fingerprint
/// parts, which the history keeps and a run carries when it travels: a keyed
/// hash, never the value nor its bare SHA-256 (a short value, `FLAVOR=debug`,
/// is found from its bare digest by trying the likely ones).
///
/// The key is the team's `DUET_REMOTE_CACHE_KEY` when set (`hmac-team:`): every
/// machine that may be served a pass holds it, so passes still match between
/// them, and nobody without it can test a guess. Without it, duet's own fixed
/// key (`hmac-duet:`) only keeps the bare digest out of the store: a guessable
/// value stays guessable, which docs/verify.md says.
enum EnvInputDigest {
  static let fixedKey = Array("duet env-inputs v1".utf8)

  /// The part for variable `name` holding `value`, under the environment's key.
  static func part(name: String, value: String, environment: [String: String]) -> String {
    // A key of its own, derived from the team's: what signs entries never keys anything else.
    let teamKey = environment[.remoteCacheKey].flatMap { $0.isEmpty ? nil : HMACSHA256.mac(key: Array($0.utf8), message: fixedKey) }
    let mac = HMACSHA256.mac(key: teamKey ?? fixedKey, message: Array(name.utf8) + [0] + Array(value.utf8))
    return (teamKey == nil ? "hmac-duet:" : "hmac-team:") + Digest.hexString(mac)
  }
}
