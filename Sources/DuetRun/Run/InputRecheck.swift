import Foundation
import DuetModel
import DuetSupport
import DuetHistory

/// A pass serves the cache only if the lane's inputs were the same after it as
/// before it: an input edited while the lane ran (by hand, by another lane) may
/// mean the lane saw something else than the fingerprint says, as Bazel guards
/// against concurrent changes. After each passing attempt of a lane that may be
/// cached, the run loop walks its inputs again and compares them with the ones
/// its fingerprint was taken from.
///
/// `before` is read and written on the run loop's thread only: a lane whose
/// need ran has its fingerprint taken again as it starts (its inputs may be
/// that need's outputs), and `before` follows; the walk after a pass runs on
/// a worker with the files handed to it.
final class InputRecheck {
  let root: URL
  let builtins: BuiltinSet
  /// The input files each cacheable lane's fingerprint was taken from.
  var before: [Int: [FingerprintParts.File]]

  init(root: URL, builtins: BuiltinSet, before: [Int: [FingerprintParts.File]]) {
    self.root = root
    self.builtins = builtins
    self.before = before
  }

  /// The input files `index`'s fingerprint was taken from; nil for a lane
  /// that is not cacheable. Read on the loop's thread, as `before` is written there.
  func files(of index: Int) -> [FingerprintParts.File]? { before[index] }

  /// The inputs of `lane` that moved since `files` (its fingerprint's) were
  /// read; nil when they stayed. Walks the tree: run on a worker, it reads
  /// nothing the loop writes.
  func moved(_ lane: Lane, since files: [FingerprintParts.File]) -> [String]? {
    let after = InputFingerprint.inputFiles(of: lane, root: root, builtins: builtins)
    let changed = FingerprintParts.changedPaths(after.files, since: files) + after.problems
    return changed.isEmpty ? nil : changed
  }
}
