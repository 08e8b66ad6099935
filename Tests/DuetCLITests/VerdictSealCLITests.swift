import Foundation
import Testing

/// Issue 52, item 6b: `verify --seal` and `--upstream` as two CI jobs run them,
/// the binary on one tree, each job with a store of its own.
@Suite("Verdict seals (the binary)")
struct VerdictSealCLITests {
  static let manifest = """
    version: 1
    lanes:
      - {name: a, sh: "true"}
      - {name: b, sh: "true", needs: [a]}
    """

  /// A sealed job's pass lets the next job's lane run; the same store with a
  /// run written into it after the seal (as a lane could) does not, and that
  /// job fails saying why.
  @Test func aSealedPassGatesAndATamperedStoreDoesNot() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let first = try tree.duet("verify", "--lane", "a", "--no-deps", "--seal", environment: ["DUET_HISTORY": ".duet/ci/one.sqlite"])
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    let seal = try tree.read(".duet/ci/one.sqlite.seal")
    #expect(seal.hasPrefix("duet verdict seal 1\nbaseline "), "\(seal)")
    let second = try tree.duet("verify", "--lane", "b", "--no-deps", "--seal", "--upstream", "one=.duet/ci/one.sqlite",
                               environment: ["DUET_HISTORY": ".duet/ci/two.sqlite"])
    #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
    // A later run in the store, which no seal names: as a lane writing into it.
    let third = try tree.duet("verify", "--lane", "a", "--no-deps", environment: ["DUET_HISTORY": ".duet/ci/one.sqlite"])
    #expect(third.status == 0)
    let gated = try tree.duet("verify", "--lane", "b", "--no-deps", "--upstream", "one=.duet/ci/one.sqlite",
                              environment: ["DUET_HISTORY": ".duet/ci/three.sqlite"])
    #expect(gated.status == 1, "\(gated.stdout)\(gated.stderr)")
    #expect(gated.stdout.contains("b skipped (needs a, not run in job one (its verdicts do not verify))"), "\(gated.stdout)")
    #expect(gated.stderr.contains("the history store of job one does not verify: it holds runs duet did not record in that job"), "\(gated.stderr)")
  }

  /// A seal that cannot be written (a folder at its path) fails the job: the
  /// jobs after it would believe nothing it hands on.
  @Test func aSealThatCannotBeWrittenFailsTheJob() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent(".duet/ci/one.sqlite.seal"), withIntermediateDirectories: true)
    let run = try tree.duet("verify", "--lane", "a", "--no-deps", "--seal", environment: ["DUET_HISTORY": ".duet/ci/one.sqlite"])
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("--seal: cannot write"), "\(run.stdout)")
  }
}
