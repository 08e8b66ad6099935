import Foundation
import Testing

/// Issue 38, item 4: a lane `duet init` proposes from a `run:` step of the
/// tree's own GitHub workflow runs as GitHub runs the step: in its shell with
/// GitHub's options (`bash -e`, `bash --noprofile --norc -eo pipefail`,
/// `sh -e`), in its `working-directory:`, with its `env:`, and under a name the
/// manifest accepts.
@Suite("duet init keeps a CI step's shell, folder and environment")
struct InitCIStepSemanticsCLITests {
  private func tree(_ steps: String, defaults: String = "") throws -> FixtureTree {
    let tree = try FixtureTree()
    try tree.write(".github/workflows/ci.yml", """
      name: ci
      on: [push]
      jobs:
        gates:
          runs-on: ubuntu-latest
      \(defaults)    steps:
      \(steps)
      """)
    return tree
  }

  /// A multi-line step whose first line fails fails its lane, as GitHub's
  /// `bash -e` fails the step; under `shell: bash` a failing pipe fails too.
  @Test func failingMultiLineStepFailsItsLane() throws {
    let tree = try tree("""
            - name: Test
              run: |
                false
                echo "still here"
            - name: Lint
              shell: bash
              run: |
                false | cat
                echo "piped"
            - name: Check plain
              run: |
                true
                echo "fine"

      """)
    let initRun = try tree.duet("init")
    #expect(initRun.status == 0, "\(initRun.stderr)")
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(manifest.contains("sh: \"bash -e -c 'false\\necho \\\"still here\\\"'\""), "\(manifest)")
    #expect(manifest.contains("bash --noprofile --norc -eo pipefail -c"), "\(manifest)")
    #expect(manifest.contains("requires: [bash]"), "\(manifest)")
    let verify = try tree.duet("verify", "--no-cache")
    #expect(verify.status != 0, "\(verify.stdout)")
    let table = verify.stdout.split(separator: "\n").map(String.init)
    #expect(table.contains { $0.hasPrefix("ci-gates-Test ") && $0.contains("fail") }, "\(verify.stdout)")
    #expect(table.contains { $0.hasPrefix("ci-gates-Lint ") && $0.contains("fail") }, "\(verify.stdout)")
    #expect(table.contains { $0.hasPrefix("ci-gates-Check-plain ") && $0.contains("pass") }, "\(verify.stdout)")
  }

  /// `working-directory:` (the step's, else `defaults.run`'s) becomes `dir:`
  /// and the workflow's, job's and step's `env:` become `env:`, so a step that
  /// runs a script beside it with a variable passes as its lane.
  @Test func workingDirectoryAndEnvironmentAreKept() throws {
    let tree = try tree("""
            - name: Check app
              working-directory: ./app
              env: {GREETING: hello, TOKEN: "${{ secrets.TOKEN }}"}
              run: sh check.sh
            - name: Check lib
              run: sh check.sh

      """, defaults: "    defaults:\n      run:\n        working-directory: lib\n")
    try tree.write("app/check.sh", "[ \"$GREETING\" = hello ] || { echo \"GREETING is '$GREETING'\"; exit 1; }\n")
    try tree.write("lib/check.sh", "test -f check.sh\n")
    let initRun = try tree.duet("init")
    #expect(initRun.status == 0, "\(initRun.stderr)")
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(manifest.contains("  - name: ci-gates-Check-app\n    sh: sh check.sh\n    dir: app\n    env:\n      GREETING: hello\n"), "\(manifest)")
    #expect(manifest.contains("  - name: ci-gates-Check-lib\n    sh: sh check.sh\n    dir: lib\n"), "\(manifest)")
    #expect(!manifest.contains("${{"), "\(manifest)")
    #expect(manifest.contains("its env TOKEN is a GitHub expression"), "\(manifest)")
    let verify = try tree.duet("verify", "--no-cache")
    #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
  }

  /// A step in a shell a lane cannot run as GitHub does is listed outside the
  /// manifest with why; `shell: sh` stays sh with GitHub's `-e`.
  @Test func otherShellsAreListedOutside() throws {
    let tree = try tree("""
            - name: Check python
              shell: python
              run: print("hi")
            - name: Check sh
              shell: sh
              run: |
                false
                true

      """)
    let initRun = try tree.duet("init")
    #expect(initRun.status == 0, "\(initRun.stderr)")
    #expect(initRun.stdout.contains("it runs in the shell 'python'"), "\(initRun.stdout)")
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(manifest.contains("sh: \"sh -e -c 'false\\ntrue'\""), "\(manifest)")
    #expect(!manifest.contains("print("), "\(manifest)")
  }

  /// Step names of any length and text give lane names `duet lanes` accepts,
  /// each its own.
  @Test func longStepNamesGiveValidLaneNames() throws {
    let long = String(repeating: "Verify the generated themes ", count: 10)
    let tree = try tree("""
            - name: \(long)one
              run: tools/check one
            - name: \(long)two
              run: tools/check two
            - name: "Test: ünïcode / (slashes) -- and dashes"
              run: tools/check three

      """)
    let initRun = try tree.duet("init")
    #expect(initRun.status == 0, "\(initRun.stderr)")
    let lanes = try tree.duet("lanes")
    #expect(lanes.status == 0, "\(lanes.stdout)\(lanes.stderr)")
    let manifest = try tree.read("lanes/manifest.yaml")
    #expect(manifest.contains("  - name: ci-gates-Verify-the-generated-themes-Verify-the-generated-th\n"), "\(manifest)")
    #expect(manifest.contains("  - name: ci-gates-Verify-the-generated-themes-Verify-the-generated-th-2\n"), "\(manifest)")
    #expect(manifest.contains("  - name: ci-gates-Test-n-code-slashes-and-dashes\n"), "\(manifest)")
  }
}
