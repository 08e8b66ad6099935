import DuetCache
import DuetRun
import DuetSupport
import Foundation

/// The cache a verify serves from and writes to: the content-addressed store
/// under `.duet/cache`, and the remote cache when `--remote-cache URL` or
/// `DUET_REMOTE_CACHE` names one. Nil when history is off: with no record
/// of what passed, nothing is served.
///
/// A bad `--remote-cache` is a usage error (exit 2); a bad `DUET_REMOTE_CACHE*`
/// variable is a warning and the run goes on without the remote: a cache is
/// never a verdict.
func laneCache(_ request: VerifyRequest, historyPath: String?, observer: VerifyObserver) throws(UsageError) -> LaneCache? {
  guard historyPath != nil else { return nil }
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
  return LaneCache(store: store, remote: remote)
}

/// The command line as the history, JSON and pages keep it: a URL's
/// `user:password@` (a `--remote-cache` with credentials) never reaches them.
package func shownCommandLine(_ words: [String]) -> String {
  words.map { $0.contains("://") ? RemoteCacheConfig.redact($0) : $0 }.joined(separator: " ")
}
