import Foundation
import Testing

/// These run bubblewrap, Linux's sandbox; macOS's (sandbox-exec) is checked as profile text (SandboxProfileTests).
#if os(Linux)
private let onLinux = true
#else
private let onLinux = false
#endif

/// On Linux the sandbox tests need bubblewrap, which `tools/install-deps test`
/// installs: a machine where it cannot make a sandbox fails them, never skips them.
private func requireBubblewrap() throws {
  try #require(bubblewrapWorks, "bubblewrap cannot make a sandbox here: run `tools/install-deps test` (it installs bubblewrap), and allow user namespaces")
}

/// Whether bubblewrap can make a sandbox on this machine (it needs Linux and namespaces).
private let bubblewrapWorks: Bool = {
  #if os(Linux)
  guard FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap") else { return false }
  let probe = Process()
  probe.executableURL = URL(fileURLWithPath: "/usr/bin/bwrap")
  probe.arguments = ["--unshare-all", "--ro-bind", "/", "/", "/bin/true"]
  probe.standardError = FileHandle.nullDevice
  guard (try? probe.run()) != nil else { return false }
  probe.waitUntilExit()
  return probe.terminationStatus == 0
  #else
  return false
  #endif
}()

/// Issue 56, items 1 and 2: `duet verify --sandbox` runs each shell lane where
/// only what it declares exists, and names what broke the declaration: a read
/// outside its inputs (found by running it outside, traced) and a write
/// outside its outputs (not kept). A plain verify passes this tree.
@Suite("Lanes in a sandbox that shows only what they declared")
struct SandboxCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: reads-undeclared
        sh: "cat config/b.txt && cat src/a.txt"
        inputs: [src/a.txt]
      - name: writes-stray
        sh: "mkdir -p build && echo out > build/out.txt && echo junk > stray.txt"
        inputs: [src/a.txt]
        outputs: [build/out.txt]
      - name: producer
        sh: "cat src/a.txt > gen/copy.txt && mkdir -p reports && echo '<testsuite/>' > reports/TEST-p.xml"
        inputs: [src/a.txt]
        outputs: [gen/copy.txt]
        reports: ["reports/*.xml"]
      - name: consumer
        needs: [producer]
        sh: "cat gen/copy.txt && test ! -e config/b.txt && test ! -e lanes/manifest.yaml && test \\"$(grep -c : /proc/net/dev)\\" = 1"
        inputs: [src/a.txt]

    """

  func makeTree() throws -> FixtureTree {
    let tree = try FixtureTree(manifest: SandboxCLITests.manifest)
    try tree.write("src/a.txt", "a\n")
    try tree.write("config/b.txt", "b\n")
    try tree.write("gen/.keep", "")
    return tree
  }

  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func undeclaredReadsAndStrayWritesAreNamed() throws {
    try requireBubblewrap()
    let tree = try makeTree()
    // The consumer checks what only the sandbox hides (the tree, the network).
    let plain = try tree.binary("verify", "--no-cache", "--skip", "consumer", environment: ["DUET_HISTORY": "off"])
    #expect(plain.status == 0, "a plain verify passes: \(plain.stdout.suffix(800))")
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("stray.txt"))
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("gen/copy.txt"))
    let run = try tree.binary("verify", "--sandbox", "--no-cache", environment: ["DUET_HISTORY": "off"])
    let output = run.stdout + run.stderr
    #expect(run.status == 1, "\(output.suffix(1500))")
    #expect(output.contains("✗ reads-undeclared 0.") && output.contains("s (reads outside its inputs: config/b.txt; add it to inputs:)"), "\(output.suffix(1500))")
    #expect(output.contains("writes-stray      fail") && output.contains("s (wrote outside its outputs: stray.txt)"), "\(output.suffix(1500))")
    #expect(output.contains("✓ producer"), "\(output.suffix(1500))")
    #expect(output.contains("✓ consumer"), "a need's outputs are shown, nothing else: \(output.suffix(1500))")
    #expect(!tree.exists("stray.txt"), "a write outside the outputs is not kept")
    #expect(try tree.read("build/out.txt") == "out\n", "a declared output comes back")
    #expect(try tree.read("gen/copy.txt") == "a\n")
    #expect(tree.exists("reports/TEST-p.xml"), "a declared report comes back")
    let sandboxes = try? FileManager.default.contentsOfDirectory(atPath: tree.url.appendingPathComponent(".duet/sandbox").path)
    #expect(sandboxes?.isEmpty ?? true, "the scratch trees are removed: \(sandboxes ?? [])")
  }

  /// Issue 56, item 2: a folder whose every file is declared is bound whole,
  /// and only such a folder: an undeclared file beside declared ones, or in
  /// a folder next to them, stays out of sight.
  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func aFolderIsShownWholeOnlyWhenAllOfItIsDeclared() throws {
    try requireBubblewrap()
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: whole, sh: "cat src/a.txt src/deep/b.txt src/.env && test ! -e other/c.txt", inputs: ["src/**"]}
        - {name: part, sh: "cat other/c.txt && test ! -e other/d.txt", inputs: [other/c.txt]}
        - {name: some, sh: "cat src/a.txt && test ! -e src/notes.md && test ! -e src/deep/b.txt", inputs: ["src/*.txt"]}
        - {name: writes, sh: "cat src/a.txt && echo x > src/new.txt", inputs: ["src/**"], outputs: [src/new.txt]}
      """)
    try tree.write("src/a.txt", "a\n")
    try tree.write("src/notes.md", "n\n")
    try tree.write("src/deep/b.txt", "b\n")
    try tree.write("src/.env", "e\n")
    try tree.write("other/c.txt", "c\n")
    try tree.write("other/d.txt", "d\n")
    let run = try tree.binary("verify", "--sandbox", "--no-cache", environment: ["DUET_HISTORY": "off"])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(try tree.read("src/new.txt") == "x\n", "a folder the lane writes an output into stays writable")
  }

  /// Issue 56, item 2: attempts one after another reuse a scratch folder,
  /// emptied: nothing one lane wrote, nor its mount points, is the next one's.
  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func aReusedScratchFolderHoldsNothingOfTheLaneBefore() throws {
    try requireBubblewrap()
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: a, sh: "cat src/a.txt && mkdir -p out && echo a > out/a.txt && echo x > stray.txt", inputs: [src/a.txt], outputs: [out]}
        - {name: b, sh: "test ! -e stray.txt && test ! -e src/a.txt && test ! -e out/a.txt"}
      """)
    try tree.write("src/a.txt", "a\n")
    let run = try tree.binary("verify", "--sandbox", "--no-cache", "--jobs", "1", environment: ["DUET_HISTORY": "off", "COLUMNS": "200"])
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("✗ a ") && run.stdout.contains("wrote outside its outputs: stray.txt"), "\(run.stdout)")
    #expect(run.stdout.contains("✓ b "), "\(run.stdout)")
    let second = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: a, sh: "cat src/a.txt && mkdir -p out && echo a > out/a.txt", inputs: [src/a.txt], outputs: [out]}
        - {name: b, sh: "test ! -e src/a.txt && test ! -e out && echo b > b.txt", outputs: [b.txt]}
        - {name: c, sh: "test ! -e src/a.txt && test ! -e out && test ! -e b.txt"}
      """)
    try second.write("src/a.txt", "a\n")
    let again = try second.binary("verify", "--sandbox", "--no-cache", "--jobs", "1", environment: ["DUET_HISTORY": "off"])
    #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    let left = try? FileManager.default.contentsOfDirectory(atPath: second.url.appendingPathComponent(".duet/sandbox").path)
    #expect(left?.isEmpty ?? true, "the run's scratch folders are removed at its end: \(left ?? [])")
  }

  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func theManifestCanAskForIt() throws {
    try requireBubblewrap()
    let tree = try FixtureTree(manifest: """
      version: 1
      sandbox: true
      lanes:
        - {name: a, sh: "test ! -e lanes/manifest.yaml"}
        - {name: b, sh: "test -e lanes/manifest.yaml", sandbox: false}
      """)
    let run = try tree.binary("verify", environment: ["DUET_HISTORY": "off"])
    #expect(run.status == 0, "\(run.stdout.suffix(800))\(run.stderr)")
  }

  /// Issue 56's done-when: the bundled example passes `--sandbox`. Its
  /// Kotlin lane compiled into `.duet/build`, outside its outputs, and failed
  /// there ("wrote outside its outputs"); it now compiles into a temporary folder.
  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func theBundledExamplePassesInTheSandbox() throws {
    try requireBubblewrap()
    let copy = try FixtureTree()
    let example = InstallCLITests.repository.appendingPathComponent("Examples/Foyer")
    try FileManager.default.removeItem(at: copy.url)
    try FileManager.default.copyItem(at: example, to: copy.url)
    try? FileManager.default.removeItem(at: copy.url.appendingPathComponent(".duet"))
    let run = try runBinary(["verify", "--sandbox", "--no-cache"], in: copy.url, timeout: 240)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("duet verify: PASS (4 passed)"), "\(run.stdout)")
  }

  @Test(.enabled(if: onLinux, "bubblewrap is Linux's sandbox"))
  func withoutBubblewrapItIsAUsageError() throws {
    let tree = try makeTree()
    let empty = tree.url.appendingPathComponent("empty-bin")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    for command in ["verify", "doctor"] {
      let run = try tree.binary(command, "--sandbox", environment: ["DUET_HISTORY": "off", "PATH": empty.path])
      #expect(run.status == 2, "\(command): \(run.stdout)\(run.stderr)")
      #expect(run.stderr.contains("install the bubblewrap package (apt-get install bubblewrap)"), "\(command): \(run.stderr)")
      #expect(run.stderr.contains("duet \(command) --help"), "\(command): \(run.stderr)")
    }
  }

  /// Issue 56: "a sandbox that cannot start is error (exit 3), never a lane
  /// failure", whatever stops it: bubblewrap refusing (above), bubblewrap
  /// that cannot be executed, a scratch folder that cannot be made.
  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func aLauncherThatCannotBeExecutedIsAnError() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    try tree.write("fake/bwrap", "#!/nonexistent/interpreter\n")
    chmod(tree.url.appendingPathComponent("fake/bwrap").path, 0o755)
    let run = try tree.binary("verify", "--sandbox", environment: ["DUET_HISTORY": "off", "PATH": tree.url.path + "/fake:/usr/bin:/bin"])
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("a error (duet could not start it: the sandbox (bubblewrap) could not start the lane"), "\(run.stdout)")
    #expect(!run.stdout.contains("FAIL"), "\(run.stdout)")
  }

  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func aScratchFolderThatCannotBeMadeIsAnError() throws {
    try requireBubblewrap()
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    try tree.write(".duet/sandbox", "a file where duet makes its scratch folders\n")
    let run = try tree.binary("verify", "--sandbox", environment: ["DUET_HISTORY": "off"])
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("a error (duet could not start it: the sandbox could not be made in"), "\(run.stdout)")
    #expect(!run.stdout.contains("FAIL"), "\(run.stdout)")
  }

  /// Issue 56: `duet doctor --sandbox` runs every lane in the sandbox and
  /// lists each lane's verdict; what broke a declaration is a problem (exit 1).
  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func doctorListsEachLanesVerdictInTheSandbox() throws {
    try requireBubblewrap()
    let tree = try makeTree()
    let run = try tree.binary("doctor", "--sandbox", environment: ["COLUMNS": "200"])
    #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
    let lines = run.stdout.components(separatedBy: "\n")
    #expect(lines.contains("  lane reads-undeclared  reads outside its inputs: config/b.txt; add it to inputs:"), "\(run.stdout)")
    #expect(lines.contains("  lane writes-stray      wrote outside its outputs: stray.txt"), "\(run.stdout)")
    #expect(lines.contains("  lane producer          proven: passed in the sandbox"), "\(run.stdout)")
    #expect(lines.contains("  lane consumer          proven: passed in the sandbox"), "\(run.stdout)")
    #expect(lines.contains("duet doctor: FAIL (2 problem(s))"), "\(run.stdout)")
    #expect(run.stdout.contains("\n  lane writes-stray: wrote outside its outputs: stray.txt (log: .duet/logs/"), "\(run.stdout)")
    #expect(!tree.exists(".duet/history.sqlite"), "a proof is not a run of record")
    #expect(!tree.exists("stray.txt"))
  }

  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func doctorPassesACleanTreeInTheSandbox() throws {
    try requireBubblewrap()
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: lint, sh: "grep -q a src/a.txt", inputs: [src/a.txt]}
        - {name: build, needs: [lint], sh: "mkdir -p out && cp src/a.txt out/a.txt", inputs: [src/a.txt], outputs: [out]}
      """)
    try tree.write("src/a.txt", "a\n")
    let run = try tree.binary("doctor", "--sandbox", "--json")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("\"summary\" : \"duet doctor: PASS (every lane that ran passed in the sandbox)\""), "\(run.stdout)")
    #expect(run.stdout.contains("\"text\" : \"proven: passed in the sandbox\""), "\(run.stdout)")
    #expect(try tree.read("out/a.txt") == "a\n", "a declared output comes back, as verify brings it")
  }

  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func doctorSaysWhenASandboxCannotStart() throws {
    try requireBubblewrap()
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    try tree.write("fake/bwrap", "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    chmod(tree.url.appendingPathComponent("fake/bwrap").path, 0o755)
    let run = try tree.binary("doctor", "--sandbox", environment: ["PATH": tree.url.path + "/fake:/usr/bin:/bin", "COLUMNS": "200"])
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("  lane a   could not start: the sandbox (bubblewrap) could not start the lane"), "\(run.stdout)")
    #expect(run.stdout.contains("duet doctor: ERROR (the sandbox could not start 1 lane(s); 1 problem(s))"), "\(run.stdout)")
  }

  @Test(.enabled(if: onLinux, "duet's sandbox is bubblewrap, on Linux"))
  func aSandboxThatCannotStartIsAnError() throws {
    try requireBubblewrap()
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"true\"}\n")
    try tree.write("fake/bwrap", "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    chmod(tree.url.appendingPathComponent("fake/bwrap").path, 0o755)
    let run = try tree.binary("verify", "--sandbox", environment: ["DUET_HISTORY": "off", "PATH": tree.url.path + "/fake:/usr/bin:/bin"])
    #expect(run.status == 3, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("a error (duet could not start it: the sandbox (bubblewrap) could not start the lane"), "\(run.stdout)")
    #expect(!run.stdout.contains("FAIL"), "\(run.stdout)")
  }
}
