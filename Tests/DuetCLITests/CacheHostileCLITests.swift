import Foundation
import Testing

/// The cache of outputs as a demanding user meets it: outputs shaped as real
/// tools leave them, runs that must write nothing, entries past what duet reads.
@Suite("The cache of outputs against hostile trees, end to end")
struct CacheHostileCLITests {
  /// A lane whose outputs hold a link out of the tree (a Python venv's
  /// `bin/python -> /usr/bin/...`) is served `cached` when nothing changed:
  /// the link is already there, so nothing needs restoring.
  @Test func aLaneWithALinkOutOfTheTreeIsServedWhenNothingChanged() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: venv
          sh: mkdir -p venv/bin && ln -sfn /usr/bin/env venv/bin/python && echo 'x = 1' > venv/site.py
          inputs: [requirements.txt]
          outputs: [venv]
      """)
    try tree.write("requirements.txt", "six\n")
    let first = try tree.duet("verify")
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    let again = try tree.duet("verify")
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    #expect(again.stdout.contains("✓ venv cached"), "\(again.stdout)")
    // A removed file of it comes back; the link, in place, is left alone.
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("venv/site.py"))
    let restored = try tree.duet("verify")
    #expect(restored.stdout.contains("✓ venv cached (restored 1 file)"), "\(restored.stdout)")
    #expect(OutputLink.target(tree.url.appendingPathComponent("venv/bin/python").path) == "/usr/bin/env")
  }

  /// `--dry-run` writes nothing under `.duet`, not even the memo of duet's
  /// own digest.
  @Test func aDryRunLeavesNoMemoOfDuetsDigest() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: tokens
          run: design-tokens --check
          inputs: [notes.txt]
      """)
    try tree.write("notes.txt", "n\n")
    try FileManager.default.createDirectory(at: tree.url.appendingPathComponent(".duet"), withIntermediateDirectories: true)
    let run = try tree.binary("verify", "--dry-run")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(!tree.exists(".duet/duet-binary"))
    // A real run keeps it.
    _ = try tree.binary("verify")
    #expect(tree.exists(".duet/duet-binary"))
  }

  /// duet's own digest goes only into built-in lanes' fingerprints, so a tree
  /// of shell lanes never hashes the executable (tens of megabytes, in every
  /// fresh checkout): no memo of it is made (issue 42, item 6).
  @Test func aTreeWithoutBuiltInLanesNeverHashesDuet() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: build
          sh: echo built
          inputs: [notes.txt]
      """)
    try tree.write("notes.txt", "n\n")
    let run = try tree.binary("verify")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(tree.exists(".duet"))
    #expect(!tree.exists(".duet/duet-binary"))
    let again = try tree.binary("verify")
    #expect(again.stdout.contains("✓ build cached"), "\(again.stdout)")
  }

  /// `--dry-run` with a remote cache asks it for entries but makes nothing in
  /// the tree: no `.duet`, no `.duet/cache/tmp` for the downloads.
  @Test func aDryRunAskingTheRemoteMakesNoFolder() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: build
          sh: mkdir -p out && echo o > out/o
          inputs: [src.txt]
          outputs: [out]
      """)
    try tree.write("src.txt", "s\n")
    // Nothing listens on port 1: the request fails, after the entry's file was made.
    let run = try tree.duet("verify", "--dry-run", "--remote-cache", "http://127.0.0.1:1/cache")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("remote cache"), "\(run.stderr)")
    #expect(!tree.exists(".duet"))
  }

  /// Outputs whose entry would be larger than any entry duet reads back (here
  /// 5,000 files under a path near PATH_MAX, about 19 MB of entry) are not
  /// stored, and the run says so, rather than leaving an entry no run can use.
  @Test func anEntryTooLargeToReadIsNotWritten() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: many
          sh: d=build; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do d=$d/$(printf '%0250d' $i); done; mkdir -p $d && cd $d && seq -f '%0250g' 1 5000 | xargs touch
          inputs: [src.txt]
          outputs: [build]
      """)
    try tree.write("src.txt", "s\n")
    let run = try tree.duet("verify")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("lane many passed, but its outputs are not stored"), "\(run.stderr)")
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(".duet/cache/ac").path)) ?? []
    #expect(entries.isEmpty, "\(entries)")
  }

  /// An output named with a line break is refused by every reader of an entry:
  /// the run says its outputs are not stored instead of writing an entry
  /// nothing reads.
  @Test func anOutputNamedWithALineBreakIsNotStored() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: odd
          sh: mkdir -p out && printf x > "out/a$(printf '\\nb')"
          inputs: [src.txt]
          outputs: [out]
      """)
    try tree.write("src.txt", "s\n")
    let run = try tree.duet("verify")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stderr.contains("lane odd passed, but its outputs are not stored: out/a\\nb"), "\(run.stderr)")
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(".duet/cache/ac").path)) ?? []
    #expect(entries.isEmpty, "\(entries)")
  }
}
