@testable import DuetModel
import Foundation
import Testing

/// `--lane` globs, `tags:` with `--tag`, `--skip` and `DUET_SKIP`, `-j`, and the
/// completions of tags and refs (the command line, in-process).
@Suite("duet verify: choosing lanes by glob, tag and skip")
struct ChoosingLanesCLITests {
  static let manifest = """
    version: 1
    lanes:
      - {name: tokens, sh: "echo tokens", tags: [fast]}
      - {name: kotlin-home, sh: "echo kh", needs: [tokens], tags: [android]}
      - {name: kotlin-theming, sh: "echo kt", needs: [tokens], tags: [android]}
      - {name: swift-home, sh: "echo sh", needs: [tokens], tags: [ios, fast]}
      - {name: lint, sh: "echo lint", tags: fast}
    """

  /// The lanes a run started or settled, from `--json`, by outcome.
  func lanes(_ run: DuetRun) throws -> [String: String] {
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    let lanes = object?["lanes"] as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: lanes.compactMap { lane in
      (lane["name"] as? String).map { ($0, lane["outcome"] as? String ?? "?") }
    })
  }

  /// A glob in `--lane` runs every lane it matches and what they need; a name still names one lane.
  @Test func laneGlobs() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let kotlin = try tree.duet("verify", "--lane", "kotlin-*", "--json")
    #expect(kotlin.status == 0, "\(kotlin.stderr)")
    #expect(try lanes(kotlin) == ["tokens": "pass", "kotlin-home": "pass", "kotlin-theming": "pass"])
    let one = try tree.duet("verify", "--lane", "*-home", "--no-deps", "--json")
    #expect(try lanes(one) == ["kotlin-home": "pass", "swift-home": "pass"])
    let exact = try tree.duet("verify", "--lane", "lint", "--json")
    #expect(try lanes(exact) == ["lint": "pass"])
  }

  /// A glob or name that matches nothing is a usage error (exit 2) naming the
  /// option, the manifest and the nearest lanes; nothing runs.
  @Test func noMatchSuggests() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let glob = try tree.duet("verify", "--lane", "kotln-*")
    #expect(glob.status == 2)
    #expect(glob.stderr.hasPrefix("duet verify: error: --lane: no lane matches 'kotln-*' in lanes/manifest.yaml; did you mean 'kotlin-home' or 'kotlin-theming'? (its lanes: tokens, kotlin-home, kotlin-theming, swift-home, lint)\n"), "\(glob.stderr)")
    let name = try tree.duet("verify", "--lane", "swift-hme")
    #expect(name.stderr.hasPrefix("duet verify: error: --lane: no lane 'swift-hme' in lanes/manifest.yaml; did you mean 'swift-home'? (its lanes: tokens, kotlin-home, kotlin-theming, swift-home, lint)\n"), "\(name.stderr)")
    let far = try tree.duet("verify", "--lane", "*-gradle")
    #expect(far.status == 2)
    #expect(far.stderr.hasPrefix("duet verify: error: --lane: no lane matches '*-gradle' in lanes/manifest.yaml (its lanes: tokens, kotlin-home, kotlin-theming, swift-home, lint)\n"), "\(far.stderr)")
    #expect(!tree.exists(".duet/history.sqlite"))
  }

  /// `--tag` runs the lanes carrying the tag (a plain `tags: fast` is a list of
  /// one) and what they need; an unknown tag is a usage error listing the tags.
  @Test func tags() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let fast = try tree.duet("verify", "--tag", "fast", "--json")
    #expect(fast.status == 0, "\(fast.stderr)")
    #expect(try lanes(fast) == ["tokens": "pass", "swift-home": "pass", "lint": "pass"])
    let both = try tree.duet("verify", "--tag", "ios", "--lane", "kotlin-theming", "--no-deps", "--json")
    #expect(try lanes(both) == ["swift-home": "pass", "kotlin-theming": "pass"])
    let typo = try tree.duet("verify", "--tag", "andriod")
    #expect(typo.status == 2)
    #expect(typo.stderr.hasPrefix("duet verify: error: --tag andriod: no lane of lanes/manifest.yaml carries it (its tags: fast, android, ios); did you mean 'android'?\n"), "\(typo.stderr)")
    let shard = try tree.duet("verify", "--tag", "fast", "--shard", "1/2")
    #expect(shard.status == 2)
    #expect(shard.stderr.contains("--shard and --tag cannot be combined"))
  }

  /// A tag that is not a word, or is listed twice, is a manifest error with its position.
  @Test func badTags() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: a
          sh: "true"
          tags: [ok, "two words", ok]
      """)
    let run = try tree.duet("lanes")
    #expect(run.status == 2)
    #expect(run.stderr.contains("lanes/manifest.yaml:5:16: error: lane 'a': a tag may hold only letters, digits, '.', '_' and '-' (at most 200), and must start with a letter or digit, got \"two words\""), "\(run.stderr)")
    #expect(run.stderr.contains("lanes/manifest.yaml:5:29: error: lane 'a': tag 'ok' is listed twice"), "\(run.stderr)")
  }

  /// `--skip` and `DUET_SKIP` (comma-separated, blanks ignored) leave lanes out
  /// as skipped by request, which the verdict line counts apart; a lane that
  /// needs a skipped one is skipped too; the run passes.
  @Test func skip() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    let run = try tree.duet("verify", "--skip", "kotlin-*", environment: ["DUET_SKIP": " lint, ,swift-home"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("- lint skipped (by request: DUET_SKIP)"), "\(run.stdout)")
    #expect(run.stdout.contains("kotlin-home     skipped  -      -      by request: --skip"), "\(run.stdout)")
    #expect(run.stdout.hasSuffix("duet verify: PASS (1 passed, 4 skipped by request)\n"), "\(run.stdout)")

    let needed = try tree.duet("verify", "--skip", "tokens", "--lane", "kotlin-home")
    #expect(needed.status == 0, "\(needed.stdout)")
    #expect(needed.stdout.hasSuffix("duet verify: PASS (1 skipped by request, 1 skipped: needs tokens)\n"), "\(needed.stdout)")

    let typo = try tree.duet("verify", environment: ["DUET_SKIP": "lnt"])
    #expect(typo.status == 2)
    #expect(typo.stderr.hasPrefix("duet verify: error: DUET_SKIP: no lane 'lnt' in lanes/manifest.yaml; did you mean 'lint'? (its lanes: tokens, kotlin-home, kotlin-theming, swift-home, lint)\n"), "\(typo.stderr)")
  }

  /// `-j N`, `-jN` and `-j=N` are `--jobs N`; `-j` with `--jobs` is given twice.
  @Test func shortJobs() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    for arguments in [["-j", "1"], ["-j1"], ["-j=1"]] {
      let run = try tree.duet(arguments: ["verify", "--lane", "lint"] + arguments)
      #expect(run.status == 0, "\(arguments): \(run.stderr)")
    }
    let zero = try tree.duet("verify", "-j", "0")
    #expect(zero.status == 2)
    #expect(zero.stderr.contains("--jobs"), "\(zero.stderr)")
    let twice = try tree.duet("verify", "-j", "1", "--jobs", "2")
    #expect(twice.stderr.hasPrefix("duet verify: error: --jobs given twice; give it once"), "\(twice.stderr)")
    let help = try tree.duet("verify", "--help")
    #expect(help.stdout.contains("  -j, --jobs N "), "\(help.stdout)")
  }

  /// `duet __complete tags` lists the manifest's tags once each; `refs` lists
  /// HEAD and the repository's branches and tags.
  @Test func completeTagsAndRefs() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    #expect(try tree.duet("__complete", "tags").stdout == "fast\nandroid\nios\n")
    let setup = try shell("git init -q -b main && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git branch topic && git tag v1", in: tree.url)
    #expect(setup.status == 0, "\(setup.output)")
    #expect(try tree.duet("__complete", "refs").stdout == "HEAD\nmain\ntopic\nv1\n")
    let bash = try tree.duet("completion", "bash").stdout
    #expect(bash.contains("        --lane|--skip|--stream) _duet_offer lanes \"$cur\"; return 0 ;;") || bash.contains("--skip"), "\(bash)")
    #expect(bash.contains("--tag) _duet_offer tags \"$cur\"; return 0 ;;"))
    #expect(bash.contains("--since) _duet_offer refs \"$cur\"; return 0 ;;"))
  }
}
