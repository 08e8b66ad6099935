import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Manifest errors")
struct ManifestLoaderTests {
  let builtins = ["design-tokens": ["--check"]]

  func load(_ text: String) throws(ManifestError) -> Manifest {
    let node: YAMLNode
    do {
      node = try YAMLParser.parse(text, file: "lanes/manifest.yaml")
    } catch {
      throw ManifestError(diagnostics: error.diagnostics)
    }
    return try ManifestLoader.parse(node, path: "lanes/manifest.yaml", builtins: builtins)
  }

  /// The messages for a manifest, one per diagnostic, as the CLI prints them.
  func errors(_ text: String) -> [String] {
    do {
      _ = try load(text)
      return []
    } catch {
      return error.diagnostics.map(\.description)
    }
  }

  /// Issue 38: a value the generated CI writes into its file (`outputs:`, a
  /// lane's or the manifest's `runs-on:`) that holds GitHub's `${{` or GitLab's
  /// `$[[` would be expanded by the CI before any shell sees it (template
  /// injection), so the manifest is refused, naming the place, lane and key.
  /// `sh:` text is run by duet inside the job, never written there, and `$VAR`
  /// is plain text in both files: both load.
  /// The hostile review of issue 37: two lanes whose outputs are one path, or
  /// one inside the other, are refused (one producer per path); a lane's own
  /// outputs may nest.
  @Test func overlappingOutputsAcrossLanesAreRefused() {
    #expect(errors("""
      version: 1
      lanes:
        - {name: a, sh: "true", outputs: [build]}
        - {name: b, sh: "true", outputs: [build/b, dist]}
        - {name: c, sh: "true", outputs: [dist, out/x, out]}
      """) == [
      "lanes/manifest.yaml:4:5: error: lane 'b': its outputs overlap those of lane 'a' (line 3): 'a' writes build, which holds build/b; one lane writes a path, so each lane's cache entry holds what it wrote",
      "lanes/manifest.yaml:5:5: error: lane 'c': its outputs overlap those of lane 'b' (line 4): both write dist; one lane writes a path, so each lane's cache entry holds what it wrote",
    ])
    #expect(errors("version: 1\nlanes:\n  - {name: a, sh: x, outputs: [build/a]}\n  - {name: b, sh: x, outputs: [build/b, build-b]}\n") == [])
  }

  /// Issue 51, item 15: one lane listing a path twice in `outputs:` (as
  /// `duet init` wrote an XCFramework linked by two packages) would store
  /// entries no run can read ("lists … twice"): refused at load, naming the
  /// place and the path; `build/` is `build`.
  @Test func anOutputListedTwiceIsRefused() {
    #expect(errors("""
      version: 1
      lanes:
        - name: kit
          sh: "true"
          outputs: [kmp/build/Kit.xcframework, dist, kmp/build/Kit.xcframework]
        - {name: web, sh: "true", outputs: [site, site/]}
      """) == [
      "lanes/manifest.yaml:5:48: error: lane 'kit': 'outputs' lists \"kmp/build/Kit.xcframework\" twice (first at 5:15); list each path once",
      "lanes/manifest.yaml:6:45: error: lane 'web': 'outputs' lists \"site\" twice (first at 6:39); list each path once",
    ])
  }

  /// Issue 40: `reports:` holds globs of the JUnit XML a lane writes, one or a
  /// list, kept in order; one outside the tree, or a value that is no string,
  /// is refused naming the file, line, column, lane and key.
  @Test func reportsAreGlobsInsideTheTree() throws {
    let manifest = try load("""
      version: 1
      lanes:
        - {name: unit, sh: "true", reports: ["app/build/test-results/**/*.xml", "out/*.xml"]}
        - {name: one, sh: "true", reports: junit.xml}
        - {name: none, sh: "true"}
      """)
    #expect(manifest.lanes.map(\.reports) == [["app/build/test-results/**/*.xml", "out/*.xml"], ["junit.xml"], []])
    #expect(errors("""
      version: 1
      lanes:
        - name: unit
          sh: "true"
          reports: [ok.xml, ../outside/*.xml]
        - {name: map, sh: "true", reports: {a: b}}
      """) == [
      "lanes/manifest.yaml:5:23: error: lane 'unit': every item of 'reports' must be a path or glob inside the tree, relative to its root (no '..', no leading '/'), got \"../outside/*.xml\"",
      "lanes/manifest.yaml:6:38: error: lane 'map': 'reports' must be a list of strings, got a mapping",
    ])
  }

  @Test func templateExpressionsInWrittenValuesAreRefused() {
    #expect(errors("""
      version: 1
      runs-on: {linux: ["${{ github.event.pull_request.title }}"]}
      lanes:
        - name: a
          sh: echo "${{ github.actor }} $HOME"
          outputs: ["build/${{ github.event.pull_request.title }}", "build/$VAR", "out/$[[ inputs.x ]]"]
          runs-on: ["$[[ inputs.runner ]]"]
      """) == [
      "lanes/manifest.yaml:2:19: error: the manifest: 'runs-on.linux' is written into the generated CI file, where the CI would expand \"${{\" before any shell runs (template injection); got \"${{ github.event.pull_request.title }}\"",
      "lanes/manifest.yaml:7:15: error: lane 'a': 'runs-on' is written into the generated CI file, where the CI would expand \"$[[\" before any shell runs (template injection); got \"$[[ inputs.runner ]]\"",
      "lanes/manifest.yaml:6:15: error: lane 'a': 'outputs' is written into the generated CI file, where the CI would expand \"${{\" before any shell runs (template injection); got \"build/${{ github.event.pull_request.title }}\"",
      "lanes/manifest.yaml:6:77: error: lane 'a': 'outputs' is written into the generated CI file, where the CI would expand \"$[[\" before any shell runs (template injection); got \"out/$[[ inputs.x ]]\"",
    ])
  }

  /// A good manifest gives every field of every lane.
  @Test func readsEveryField() throws {
    let manifest = try load("""
      version: 1
      modules: [src-kmp/*]
      lanes:
        - name: tokens
          run: design-tokens --check
          inputs: [parity/design-tokens.yaml]
        - name: kotlin
          sh: cd src-kmp && ./gradlew test
          needs: [tokens]
          covers: [src-kmp/theming]
          timeout: 10m
          retries: 1
          env: {GRADLE_OPTS: -Xmx1g}
          dir: src-kmp
          requires: [java]
      """)
    #expect(manifest.modules == ["src-kmp/*"])
    let kotlin = try #require(manifest.lane(named: "kotlin"))
    #expect(kotlin.step == .shell("cd src-kmp && ./gradlew test"))
    #expect(kotlin.needs == ["tokens"])
    #expect(kotlin.timeout == 600)
    #expect(kotlin.retries == 1)
    #expect(kotlin.env == [EnvironmentEntry(name: "GRADLE_OPTS", value: "-Xmx1g")])
    #expect(kotlin.dir == "src-kmp")
    #expect(kotlin.requires == ["java"])
    #expect(manifest.lanes[0].step == .builtin(command: "design-tokens", arguments: ["--check"]))
  }

  /// Not YAML at all: the parser's position.
  @Test func notYAML() {
    let found = errors("version: 1\nlanes: [\n")
    #expect(found.count == 1)
    #expect(found[0].hasPrefix("lanes/manifest.yaml:3:1: error: not valid YAML"))
  }

  /// A list where a mapping belongs, and a mapping where a list belongs.
  @Test func wrongTypes() {
    #expect(errors("- a\n") == ["lanes/manifest.yaml:1:1: error: the manifest must be a mapping, got a list"])
    #expect(errors("version: 1\nlanes: {a: 1}\n") == ["lanes/manifest.yaml:2:8: error: the manifest: 'lanes' must be a list of lanes, got a mapping"])
    #expect(errors("version: 1\nlanes:\n  - name: a\n    sh: x\n    needs: {b: 1}\n") == ["lanes/manifest.yaml:5:12: error: lane 'a': 'needs' must be a list of strings, got a mapping"])
    #expect(errors("version: 1\nlanes:\n  - name: a\n    sh: x\n    retries: two\n") == ["lanes/manifest.yaml:5:14: error: lane 'a': 'retries' must be a whole number, 0 or more, got \"two\""])
  }

  /// An unknown key names the nearest known key.
  @Test func unknownKeySuggests() {
    let found = errors("version: 1\nlanes:\n  - name: a\n    sh: x\n    neds: [b]\n")
    #expect(found.count == 1)
    #expect(found[0].hasPrefix("lanes/manifest.yaml:5:5: error: lane 'a': unknown key 'neds'; did you mean 'needs'?"))
  }

  /// A lane without a name.
  @Test func missingName() {
    #expect(errors("version: 1\nlanes:\n  - sh: x\n") == ["lanes/manifest.yaml:3:5: error: lane 1: missing 'name'"])
  }

  /// Both or neither of run and sh.
  @Test func runOrShell() {
    let both = errors("version: 1\nlanes:\n  - name: a\n    sh: x\n    run: design-tokens\n")
    #expect(both == ["lanes/manifest.yaml:4:5: error: lane 'a': has both 'run' and 'sh'; a lane runs a built-in ('run') or a shell command ('sh'), not both"])
    let neither = errors("version: 1\nlanes:\n  - name: a\n")
    #expect(neither == ["lanes/manifest.yaml:3:5: error: lane 'a': needs 'run' (a built-in: design-tokens) or 'sh' (a shell command)"])
  }

  /// The second of two lanes with one name, pointing back at the first.
  @Test func duplicateLane() {
    let found = errors("version: 1\nlanes:\n  - name: a\n    sh: x\n  - name: a\n    sh: y\n")
    #expect(found == ["lanes/manifest.yaml:5:11: error: lane 'a': duplicate lane name; the first is at line 3"])
  }

  /// A need naming no lane, with a suggestion.
  @Test func unknownNeed() {
    let found = errors("version: 1\nlanes:\n  - name: tokens\n    sh: x\n  - name: b\n    sh: y\n    needs: [tokns]\n")
    #expect(found == ["lanes/manifest.yaml:7:13: error: lane 'b': needs unknown lane 'tokns'; did you mean 'tokens'?"])
  }

  /// A cycle is printed as a closed path.
  @Test func cycle() {
    let found = errors("""
      version: 1
      lanes:
        - {name: a, sh: x, needs: [c]}
        - {name: b, sh: x, needs: [a]}
        - {name: c, sh: x, needs: [b]}
      """)
    #expect(found == ["lanes/manifest.yaml:3:5: error: lane 'a': needs form a cycle: a -> c -> b -> a"])
    #expect(errors("version: 1\nlanes:\n  - {name: a, sh: x, needs: [a]}\n") == ["lanes/manifest.yaml:3:5: error: lane 'a': needs form a cycle: a -> a"])
  }

  /// Timeouts accept 90s, 10m and 1h and refuse anything else.
  @Test func timeouts() throws {
    for (text, seconds) in [("90s", 90.0), ("10m", 600), ("1h", 3600)] {
      let manifest = try load("version: 1\nlanes:\n  - {name: a, sh: x, timeout: \(text)}\n")
      #expect(manifest.lanes[0].timeout == seconds)
    }
    let found = errors("version: 1\nlanes:\n  - {name: a, sh: x, timeout: soon}\n")
    #expect(found == ["lanes/manifest.yaml:3:31: error: lane 'a': 'timeout' must be a duration such as 90s, 10m or 1h, at most 7d, got \"soon\""])
  }

  /// An unknown built-in, and an option a built-in does not take.
  @Test func unknownBuiltin() {
    let found = errors("version: 1\nlanes:\n  - {name: a, run: desgn-tokens}\n  - {name: b, run: design-tokens --chek}\n")
    #expect(found.count == 2)
    #expect(found[0].hasPrefix("lanes/manifest.yaml:3:20: error: lane 'a': unknown built-in 'desgn-tokens'; did you mean 'design-tokens'?"))
    #expect(found[1].hasPrefix("lanes/manifest.yaml:4:20: error: lane 'b': built-in 'design-tokens' does not take '--chek'; did you mean '--check'?"))
  }

  /// Every error in the file is reported, not just the first.
  @Test func everyErrorIsReported() {
    let found = errors("""
      version: 1
      lanes:
        - name: a
          sh: x
          neds: [b]
        - name: b
          timeout: forever
          sh: y
        - sh: z
        - name: c
          sh: w
          needs: [nope]
      """)
    #expect(found.count == 4)
  }

  /// Versions: missing, not a number, or newer than this duet.
  @Test func versions() {
    #expect(errors("lanes: []\n") == ["lanes/manifest.yaml:1:1: error: the manifest: missing 'version' (write 'version: 1' at the top)"])
    #expect(errors("version: 2\n") == ["lanes/manifest.yaml:1:10: error: manifest version 2 is newer than this duet understands (1); upgrade duet"])
  }

  /// Lane names become file names, so they may not hold slashes or spaces; dir stays in the tree.
  @Test func namesAndDirs() {
    #expect(errors("version: 1\nlanes:\n  - {name: ../x, sh: y}\n").count == 1)
    #expect(errors("version: 1\nlanes:\n  - {name: a, sh: y, dir: ../up}\n") == ["lanes/manifest.yaml:3:27: error: lane 'a': 'dir' must be a folder inside the tree, relative to its root, got \"../up\""])
  }
}
