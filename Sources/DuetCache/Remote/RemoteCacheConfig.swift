import DuetSupport
import Foundation

/// Where the remote cache is and how to talk to it, checked once where it
/// enters: the `--remote-cache URL` flag (which wins) or `DUET_REMOTE_CACHE`,
/// with the other `DUET_REMOTE_CACHE_*` variables. Every reader after this one
/// is total. The credentials live here and nowhere else: `base`, the only form
/// of the URL duet ever shows, has none, and `description` and the mirror hide
/// them, so printing a config (or a failed `#expect` on one) cannot leak them.
package struct RemoteCacheConfig: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
  /// `scheme://host[:port]/path`: no userinfo, no query, no trailing slash.
  /// Requests go to `<base>/ac/<hex>` and `<base>/cas/<hex>`.
  var base: String
  /// Basic auth from the URL's userinfo, percent-decoded.
  var user: String?
  var password: String?
  /// `Authorization: Bearer <token>`, from `DUET_REMOTE_CACHE_TOKEN`.
  var bearerToken: String?
  /// Whether duet PUTs what it built (`DUET_REMOTE_CACHE_UPLOAD=1` or `true`);
  /// a cache is read-only unless told.
  package var upload: Bool
  /// The key action entries are signed with (`DUET_REMOTE_CACHE_KEY`, its
  /// UTF-8 bytes); nil when unset or empty.
  package var signingKey: [UInt8]?
  /// How long a TCP (and TLS) connect may take: a server that is down should
  /// cost a build seconds, not minutes.
  var connectTimeout: Duration = .seconds(5)
  /// A transfer slower than `lowSpeedLimit` bytes a second for `lowSpeedTime`
  /// is abandoned: a stalled server is found without capping honest big blobs.
  var lowSpeedLimit: Int = 1024
  var lowSpeedTime: Duration = .seconds(10)
  /// The most one request may take, whatever its speed (libcurl counts whole
  /// requests, connect included).
  var requestTimeout: Duration = .seconds(120)
  /// A run's remote cache is off once its calls have waited this long, summed,
  /// on transfers that moved under `stallRate` bytes a second together with
  /// none ending: a wedged or trickling server costs a run about 10 s.
  var stallBudget: Duration = .seconds(10)
  var stallRate: Int = 64 * 1024
  /// How many requests run at once (`DUET_REMOTE_CACHE_JOBS`, 1...64).
  var parallel: Int = 16
  /// The largest blob duet downloads; a larger answer is refused, not stored.
  package var maxBlobBytes: Int = 2 << 30

  /// The variables read, for a command that documents or lists them.
  static let variables = EnvironmentVariable.remoteCacheSettings.map(\.rawValue)

  /// A config for `url` with the defaults above and no token, key or upload;
  /// `source` names the URL's origin in an error.
  init(url: String, source: String = "--remote-cache") throws(RemoteCacheConfigError) {
    let parsed = try Self.parse(url: url, source: source)
    self.base = parsed.base
    self.user = parsed.user
    self.password = parsed.password
    self.bearerToken = nil
    self.upload = false
    self.signingKey = nil
  }

  /// The remote cache the flag or the environment names, or nil when neither
  /// does (no flag, `DUET_REMOTE_CACHE` unset or empty). Takes the environment
  /// as a value: commands read the invocation's, never the process's.
  package static func resolve(flag: String?, environment: [String: String]) throws(RemoteCacheConfigError) -> RemoteCacheConfig? {
    let url: String
    let source: String
    if let flag {
      (url, source) = (flag, "--remote-cache")
    } else if let value = environment[.remoteCache], !value.isEmpty {
      (url, source) = (value, EnvironmentVariable.remoteCache.rawValue)
    } else {
      return nil
    }
    var config = try RemoteCacheConfig(url: url, source: source)
    if let token = environment[.remoteCacheToken], !token.isEmpty {
      guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
        throw RemoteCacheConfigError(source: EnvironmentVariable.remoteCacheToken.rawValue, message: "expected printable ASCII without spaces or line breaks (the value is not shown)")
      }
      guard config.user == nil else {
        throw RemoteCacheConfigError(source: EnvironmentVariable.remoteCacheToken.rawValue, message: "set, and \(source) holds a user too: use one of a bearer token and a user and password")
      }
      config.bearerToken = token
    }
    config.upload = try flagValue(environment[.remoteCacheUpload], name: EnvironmentVariable.remoteCacheUpload.rawValue)
    if let key = environment[.remoteCacheKey], !key.isEmpty { config.signingKey = Array(key.utf8) }
    if let jobs = environment[.remoteCacheJobs], !jobs.isEmpty {
      guard jobs.utf8.count <= 4, let count = Int(jobs), (1...64).contains(count) else {
        throw RemoteCacheConfigError(source: EnvironmentVariable.remoteCacheJobs.rawValue, message: "expected a number from 1 to 64, got \"\(String(jobs.prefix(20)))\"")
      }
      config.parallel = count
    }
    return config
  }

  /// The URL as it may be shown: `base`.
  package var redacted: String { base }

  package var description: String { "remote cache \(base)" }

  /// Shows no secret: what a test failure or `dump` prints.
  package var customMirror: Mirror {
    Mirror(self, children: [
      "base": base, "auth": bearerToken != nil ? "bearer" : (user != nil ? "basic" : "none"),
      "upload": upload, "signed": signingKey != nil, "parallel": parallel, "maxBlobBytes": maxBlobBytes,
    ])
  }

  /// `1`/`true` on, unset/empty/`0`/`false` off, anything else an error (a
  /// typo must not silently leave uploads off).
  private static func flagValue(_ value: String?, name: String) throws(RemoteCacheConfigError) -> Bool {
    switch value?.lowercased() {
    case nil, "", "0", "false": return false
    case "1", "true": return true
    case let other?:
      throw RemoteCacheConfigError(source: name, message: "expected 1, true, 0 or false, got \"\(String(other.prefix(20)))\"")
    }
  }
}
