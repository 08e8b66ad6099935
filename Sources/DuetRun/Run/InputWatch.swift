import Foundation
import DuetModel
import DuetSupport

/// A pass serves the cache only if the lane's inputs were the same after it as
/// before it: an input edited while the lane ran (by hand, by another lane) may
/// mean the lane saw something else than the fingerprint says, as Bazel guards
/// against concurrent changes. Wraps the real runner: after each passing
/// attempt of a lane that may be cached, its inputs are walked again and
/// compared with the ones its fingerprint was taken from.
final class InputWatch: StepRunner {
  private let inner: any StepRunner
  private let root: URL
  private let builtins: BuiltinSet
  /// The input files each cacheable lane's fingerprint was taken from.
  private let before: [Int: [FingerprintParts.File]]
  private let movedByLane = Locked<[Int: [String]]>([:])

  init(_ inner: any StepRunner, root: URL, builtins: BuiltinSet, before: [Int: [FingerprintParts.File]]) {
    self.inner = inner
    self.root = root
    self.builtins = builtins
    self.before = before
  }

  /// For each lane whose last passing attempt saw its inputs change: which.
  var moved: [Int: [String]] { movedByLane.withLock { $0 } }

  func start(_ request: StepRequest, completion: @escaping @Sendable (AttemptResult) -> Void) {
    guard let files = before[request.index] else {
      inner.start(request, completion: completion)
      return
    }
    let root = self.root, builtins = self.builtins, movedByLane = self.movedByLane
    inner.start(request) { result in
      guard result.outcome == .pass else { return completion(result) }
      // Off the thread that reported the end (the output pump keeps every lane's deadline).
      DispatchQueue.global().async {
        let after = InputFingerprint.inputFiles(of: request.lane, root: root, builtins: builtins)
        let changed = FingerprintParts.changedPaths(after.files, since: files) + after.problems
        movedByLane.withLock { $0[request.index] = changed.isEmpty ? nil : changed }
        completion(result)
      }
    }
  }

  func interruptAll() { inner.interruptAll() }
}
