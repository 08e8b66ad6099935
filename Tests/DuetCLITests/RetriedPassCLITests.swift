import Foundation
import Testing

/// Issue 55, item 4: a lane that passed only on a retry was served from the
/// cache with no word. `--dry-run` says it is flaky at this fingerprint, and
/// `--strict=flaky` runs it again; `--strict` alone works as before.
@Suite("A pass that came only on a retry is not served silently")
struct RetriedPassCLITests {
  private static let manifest = """
    version: 1
    lanes:
      - name: ui
        inputs: [src/**]
        retries: 1
        sh: 'test "$DUET_ATTEMPT" = 2'
      - name: unit
        inputs: [src/**]
        sh: "true"
    """

  @Test func theDryRunSaysTheCachedPassWasFlaky() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src/a.txt", "one")
    #expect(try tree.duet("verify").status == 0)
    let dry = try tree.duet("verify", "--dry-run")
    #expect(dry.lines.contains { $0.hasSuffix("ui    cached  flaky at this fingerprint: 1 of 2 attempts failed") }, "\(dry.stdout)")
    #expect(dry.lines.contains { $0.hasSuffix("unit  cached  inputs unchanged since it last passed") })
    // Served once from the cache, it is still the same flaky pass.
    #expect(try tree.duet("verify").status == 0)
    #expect(try tree.duet("verify", "--dry-run").lines.contains { $0.hasSuffix("ui    cached  flaky at this fingerprint: 1 of 2 attempts failed") })
  }

  @Test func strictFlakyRunsItAgainAndStrictAloneIsUnchanged() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    try tree.write("src/a.txt", "one")
    #expect(try tree.duet("verify").status == 0)
    let dry = try tree.duet("verify", "--strict=flaky", "--dry-run")
    #expect(dry.lines.contains { $0.hasSuffix("ui    runs    flaky at this fingerprint: 1 of 2 attempts failed (--strict=flaky)") }, "\(dry.stdout)")
    #expect(dry.lines.contains { $0.hasSuffix("unit  cached  inputs unchanged since it last passed") })
    let run = try tree.duet("verify", "--strict=flaky")
    #expect(run.status == 0)
    #expect(run.stdout.contains("ui    flaky "))
    let strict = try tree.duet("verify", "--strict", "--dry-run")
    #expect(strict.lines.contains { $0.contains("  ui  ") && $0.contains(" runs ") && $0.hasSuffix("it last passed without --strict, so nothing says it leaves tracked files alone") }, "\(strict.stdout)")
    let wrong = try tree.duet("verify", "--strict=flakey")
    #expect(wrong.status == 2)
    #expect(wrong.stderr.contains("--strict takes no value, or =flaky (run again a lane whose cached pass came only on a retry), got 'flakey'"))
  }
}
