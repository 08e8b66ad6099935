import DuetCache
import DuetRun
import DuetSupport
import Foundation

/// The cache a verify serves from and writes to: the content-addressed store
/// under `.duet/cache`, and the remote cache when `--remote-cache URL` or
/// `DUET_REMOTE_CACHE` names one. Its action entries are the one record that a
/// lane passed, so it is on whatever `DUET_HISTORY` says; with the history off
/// one line at the start says so (the run is not recorded, the cache still
/// serves and keeps passes). `--no-cache` serves nothing (passes are still kept).
///
/// A bad `--remote-cache` is a usage error (exit 2); a bad `DUET_REMOTE_CACHE*`
/// variable is a warning and the run goes on without the remote: a cache is
/// never a verdict.
func laneCache(_ request: VerifyRequest, historyPath: String?, observer: VerifyObserver) throws(UsageError) -> LaneCache? {
  let store = ContentStore(folder: ContentStore.defaultFolder(root: request.root))
  var remote: RemoteCache?
  do {
    if let config = try RemoteCacheConfig.resolve(flag: request.remoteCache, environment: request.environment) {
      remote = RemoteCache(transport: HTTPTransport(config: config), name: config.redacted, upload: config.upload,
                           signingKey: config.signingKey, store: store, maxBlobBytes: config.maxBlobBytes)
    }
  } catch {
    if request.remoteCache != nil { throw UsageError(message: "\(error)", command: "verify") }
    observer.warning("remote cache: \(error); running without it")
  }
  if historyPath == nil && !request.options.noCache {
    observer.notice(historyOffNotice(remote: remote?.name))
  }
  return LaneCache(store: store, remote: remote)
}

/// The one line a run with `DUET_HISTORY=off` starts with: what is off and what is not.
func historyOffNotice(remote: String?) -> String {
  "duet verify: DUET_HISTORY=off: this run is not recorded, but the cache is on: passes are served from and kept in .duet/cache"
    + (remote.map { " and the remote cache \($0)" } ?? "") + " (--no-cache serves none)"
}

/// The command line as the history, JSON and pages keep it: a URL's
/// `user:password@` (a `--remote-cache` with credentials) never reaches them.
func shownCommandLine(_ words: [String]) -> String {
  words.map { $0.contains("://") ? RemoteCacheConfig.redact($0).text : $0 }.joined(separator: " ")
}
