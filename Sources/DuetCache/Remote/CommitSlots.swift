import DuetSupport

/// Where a commit's recorded runs are kept on a Bazel HTTP remote cache, which
/// has no listing: in numbered slots, each an action entry under the key
/// `SHA-256("duet-runs v1", commit, slot)`. An upload takes the first slot the
/// server does not hold; a reader asks slot 0, 1, 2 … until one is missing (at
/// most `maxSlots`). A slot's entry names the runs it carries as outputs
/// `runs/<run id>`, each pointing at the blob (a history store file holding
/// them), so a reader learns the run ids without fetching a byte more, and a
/// blob already held locally, or a run already merged, is not fetched again.
package enum CommitSlots {
  /// The most slots read or written per commit: 64 uploads (jobs, shards,
  /// re-runs, laptops) of one commit.
  package static let maxSlots = 64
  /// The `lane` an entry of a slot carries, so it is never taken for a lane's pass.
  static let entryLane = "duet-runs"
  /// The folder of the outputs that name the runs.
  static let runFolder = "runs/"

  /// The action key of `slot` for `commit`.
  package static func key(commit: String, slot: Int) -> String {
    Digest.sha256("duet-runs v1\u{0}\(commit)\u{0}\(slot)")
  }

  /// The entry of a slot: the runs `runIDs`, all in `blob`.
  package static func entry(commit: String, slot: Int, runIDs: [String], blob: BlobDigest, duetVersion: String) -> ActionEntry {
    ActionEntry(key: key(commit: commit, slot: slot), lane: entryLane, duetVersion: duetVersion, strict: false, partial: false,
                outputs: runIDs.sorted().map { .file(path: runFolder + $0, digest: blob, mode: 0o444) }, log: nil)
  }

  /// The runs a slot's entry names, with the blob holding each; empty for an
  /// entry that is not a slot's (another lane's, a path outside `runs/`).
  package static func runs(in entry: ActionEntry) -> [(id: String, blob: BlobDigest)] {
    guard entry.lane == entryLane else { return [] }
    return entry.outputs.compactMap { output in
      guard case .file(let path, let digest, _) = output, path.hasPrefix(runFolder) else { return nil }
      let id = String(path.dropFirst(runFolder.count))
      return id.isEmpty || id.contains("/") ? nil : (id, digest)
    }
  }
}
