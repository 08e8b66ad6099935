import Foundation
import Testing

@Suite("Small things a newcomer hits (the command line, in-process)")
struct NewcomerCLITests {
  /// A YAML error inside an unquoted `sh:` value (block or flow style) says to
  /// quote the command or write it as a block; other YAML errors get no such hint.
  @Test func unquotedShellValueSuggestsQuoting() throws {
    let block = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: a\n    sh: grep -q x f || echo \"no: x\"\n")
    let run = try block.duet("verify")
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("lanes/manifest.yaml:4:32: error: not valid YAML: mapping values are not allowed in this context; the sh: value on line 4 is not quoted"))
    #expect(run.stderr.contains("put the command in single quotes"))
    #expect(run.stderr.contains("sh: |"))

    let flow = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: [ -f x ] && echo y}\n")
    #expect(try flow.duet("lanes").stderr.contains("the sh: value on line 3 is not quoted"))

    let quoted = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: a\n    sh: 'echo a: b'\n    needs: [\n")
    let other = try quoted.duet("lanes")
    #expect(other.status == 2)
    #expect(!other.stderr.contains("not quoted"), "\(other.stderr)")

    let fixed = try FixtureTree(manifest: "version: 1\nlanes:\n  - name: a\n    sh: |\n      grep -q x f || echo \"no: x\"\n")
    #expect(try fixed.duet("lanes").status == 0)
  }

  /// `duet logs NAME` and `duet history --lane NAME` with a name neither the
  /// manifest nor the history knows are usage errors naming the nearest lane;
  /// a lane only the history knows (renamed since) is still readable.
  @Test func unknownLaneSuggestsTheNearest() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: kotlin, sh: echo hi}\n  - {name: swift, sh: echo hi}\n")
    #expect(try tree.duet("verify").status == 0)
    let logs = try tree.duet("logs", "kotln")
    #expect(logs.status == 2)
    #expect(logs.stderr.hasPrefix("duet logs: error: no lane 'kotln' in lanes/manifest.yaml or the history; did you mean 'kotlin'? (its lanes: kotlin, swift)\n"))
    let history = try tree.duet("history", "--lane", "swfit")
    #expect(history.status == 2)
    #expect(history.stderr.hasPrefix("duet history: error: --lane: no lane 'swfit' in lanes/manifest.yaml or the history; did you mean 'swift'?"))

    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n  - {name: android, sh: echo hi}\n")
    let renamed = try tree.duet("logs", "kotlin")
    #expect(renamed.status == 0)
    #expect(renamed.stdout == "hi\n")
    #expect(try tree.duet("history", "--lane", "kotlin").status == 0)
  }

  /// `duet flaky --since 7` (no unit) is a usage error; `7d` is fine.
  @Test func flakySinceNeedsAUnit() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    let bare = try tree.duet("flaky", "--since", "7")
    #expect(bare.status == 2)
    #expect(bare.stderr.hasPrefix("duet flaky: error: --since needs a unit: 7d, 12h or 30m, got '7'"))
    #expect(try tree.duet("flaky", "--since", "7d").status == 0)
  }

  /// `duet init` in a tree where it finds nothing writes one example lane (an
  /// echo, with a comment saying to replace it), which `duet verify` runs and passes.
  @Test func initOnAnEmptyTreeWritesAnExampleLane() throws {
    let tree = try FixtureTree()
    let run = try tree.duet("init")
    #expect(run.status == 0)
    #expect(run.stdout.hasSuffix("duet init: wrote lanes/manifest.yaml with one example lane (an echo); replace it with your checks, then 'duet verify' runs them\n"))
    let text = try tree.read("lanes/manifest.yaml")
    #expect(!text.contains("lanes: []"))
    #expect(text.contains("so this lane is only an example: replace it with your checks\n"))
    #expect(text.contains("  - name: example\n    sh: echo "))
    let verify = try tree.duet("verify")
    #expect(verify.status == 0, "\(verify.stderr)")
    #expect(verify.stdout.hasSuffix("duet verify: PASS (1 passed)\n"))
  }
}
