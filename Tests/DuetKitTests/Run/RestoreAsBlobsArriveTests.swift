@testable import DuetCache
@testable import DuetFuzzSupport
@testable import DuetModel
@testable import DuetRun
@testable import DuetSupport
import Foundation
import Testing

/// Issue 51's restore bound (within reach of one `curl --parallel`): a cached
/// lane's files are written on a worker as soon as the blobs it waits for are
/// in the store, while the other lanes' blobs still download; not after the
/// whole batch.
@Suite("A cached lane is restored as its blobs arrive")
struct RestoreAsBlobsArriveTests {
  /// A remote cache in memory that answers GETs one by one, telling of each as
  /// it ends; before the last it waits (a few seconds at most) for a lane's
  /// file to appear in `tree`, and says whether one did.
  final class SlowLastServer: RemoteTransport {
    let objects: [String: [UInt8]]
    let watched: [URL]
    private let sawEarlyFile = Locked(false)

    init(objects: [String: [UInt8]], watched: [URL]) {
      self.objects = objects
      self.watched = watched
    }

    var aFileCameBeforeTheLastBlob: Bool { sawEarlyFile.current }

    private func answer(_ request: RemoteGet) -> RemoteResult {
      guard let bytes = objects[request.key.description] else { return .missing }
      _ = FileManager.default.createFile(atPath: request.destination, contents: Data(bytes))
      return .done(bytes: bytes.count)
    }

    func get(_ requests: [RemoteGet]) -> [RemoteResult] { requests.map(answer) }

    func get(_ requests: [RemoteGet], each: (Int, RemoteResult, BlobDigest?) -> Void) -> [RemoteResult] {
      var results: [RemoteResult] = []
      for (offset, request) in requests.enumerated() {
        if offset == requests.count - 1, offset > 0 {
          let seen = eventually(within: 10) { watched.contains { FileManager.default.fileExists(atPath: $0.path) } }
          sawEarlyFile.withLock { $0 = seen }
        }
        let result = answer(request)
        results.append(result)
        each(offset, result, nil)
      }
      return results
    }

    func put(_ requests: [RemotePut]) -> [RemoteResult] { requests.map { _ in .failed("read-only") } }
    func head(_ keys: [RemoteKey]) -> [RemoteResult] { keys.map { objects[$0.description].map { .done(bytes: $0.count) } ?? .missing } }
  }

  @Test func theFirstLanesFilesAreWrittenBeforeTheLastBlobComes() throws {
    // The pass that filled the server: three lanes, each one output file.
    let source = try TemporaryFolder()
    let names = ["a", "b", "c"]
    var objects: [String: [UInt8]] = [:]
    var lanes: [Lane] = []
    var keys: [Int: String] = [:]
    let sourceStore = ContentStore(folder: source.url.appendingPathComponent(".duet/cache"))
    for (index, name) in names.enumerated() {
      try source.write("out/\(name)/file.txt", String(repeating: name, count: 1000 + index))
      var lane = Lane(name: name, step: .shell("true"), location: SourceLocation(file: "m", line: 1, column: 1))
      lane.outputs = ["out/\(name)"]
      lanes.append(lane)
      let found = OutputFiles.capture(lane.outputs, root: source.url, store: sourceStore)
      let key = Digest.sha256("key \(name)")
      keys[index] = key
      let log = Array("log of \(name)\n".utf8)
      let logDigest = BlobDigest(hash: Digest.sha256(Data(log)), size: log.count)
      objects["cas/\(logDigest.hash)"] = log
      let entry = ActionEntry(key: key, lane: name, duetVersion: "0", strict: false, partial: false, outputs: found.outputs, log: logDigest)
      objects["ac/\(key)"] = entry.encoded()
      for case .file(_, let digest, _) in found.outputs {
        objects["cas/\(digest.hash)"] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: sourceStore.blobPath(digest.hash))))
      }
    }
    // A fresh clone restores them from the server.
    let clone = try TemporaryFolder()
    let server = SlowLastServer(objects: objects, watched: names.map { clone.url.appendingPathComponent("out/\($0)/file.txt") })
    let store = ContentStore(folder: clone.url.appendingPathComponent(".duet/cache"))
    let remote = RemoteCache(transport: server, name: "memory", upload: false, signingKey: nil, store: store)
    let cache = LaneCache(store: store, remote: remote)
    cache.lookUp(keys, lanes: lanes)
    let logPaths = Dictionary(uniqueKeysWithValues: names.indices.map { ($0, ".duet/logs/run/\(names[$0]).log") })
    let restored = cache.restore([0, 1, 2], lanes: lanes, root: clone.url, logPaths: logPaths)
    for index in 0..<3 {
      #expect(restored[index]?.result == .restored(files: 1), "lane \(names[index])")
      #expect(restored[index]?.log == logPaths[index])
      let log = clone.url.appendingPathComponent(logPaths[index]!).path
      #expect(FileManager.default.contents(atPath: log) == Data("log of \(names[index])\n".utf8))
      // A log this run downloaded is the store's file under a second name: no copy, no new file.
      var inTree = stat(), inStore = stat()
      let digest = BlobDigest(hash: Digest.sha256(Data("log of \(names[index])\n".utf8)), size: 9)
      #expect(lstat(log, &inTree) == 0 && lstat(store.blobPath(digest.hash), &inStore) == 0 && inTree.st_ino == inStore.st_ino,
              "the log of \(names[index]) is a copy")
    }
    #expect(server.aFileCameBeforeTheLastBlob, "no lane's files were written before the last blob came")
    for (index, name) in names.enumerated() {
      let text = try String(contentsOf: clone.url.appendingPathComponent("out/\(name)/file.txt"), encoding: .utf8)
      #expect(text == String(repeating: name, count: 1000 + index))
      // The remote's entry is kept in the local store, for the next run offline.
      #expect(store.entryBytes(keys[index]!) != nil)
    }
  }
}
