import Foundation
import Testing
@testable import DuetApp
@testable import DuetCI
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// A sandbox for the workflows' install step: a local git repository standing in
/// for duet's, and stubs for `curl` (the release download), `swift` (the build)
/// and `sudo`/`brew` (package installs), so the step runs for real in seconds.
final class InstallSandbox {
  let root: URL
  var repository: URL { root.appendingPathComponent("duet.git") }
  var log: URL { root.appendingPathComponent("calls.log") }

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("duet-install-\(UUID().uuidString)").resolvingSymlinksInPath()
    for folder in ["stubs", "home", "runner", "work", "duet.git"] {
      try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    // A duet whose --version says which commit of the repository it was built from.
    try stub("swift", """
      #!/bin/sh
      echo "swift $*" >> "$SANDBOX/calls.log"
      for a in "$@"; do pkg="$prev"; prev="$a"; [ "$a" = --show-bin-path ] && show=1; done
      src=""; set -- "$@"; while [ $# -gt 0 ]; do [ "$1" = --package-path ] && src="$2"; shift; done
      if [ -n "$show" ]; then echo "$src/.build/release"; exit 0; fi
      mkdir -p "$src/.build/release"
      printf '#!/bin/sh\\necho "duet built at %s"\\n' "$(git -C "$src" rev-parse HEAD)" > "$src/.build/release/duet"
      chmod +x "$src/.build/release/duet"
      """)
    try stub("sudo", "#!/bin/sh\necho \"sudo $*\" >> \"$SANDBOX/calls.log\"\n")
    try stub("brew", "#!/bin/sh\necho \"brew $*\" >> \"$SANDBOX/calls.log\"\n")
    try stub("curl", """
      #!/bin/sh
      while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift ;; http*|file*) url="$1" ;; esac; shift; done
      echo "curl $url" >> "$SANDBOX/calls.log"
      [ -f "$SANDBOX/release.tar.gz" ] || exit 22
      cp "$SANDBOX/release.tar.gz" "$out"
      """)
    try git("init", "-q", "-b", "main")
    try git("config", "uploadpack.allowAnySHA1InWant", "true")
    try "first\n".write(to: repository.appendingPathComponent("README"), atomically: true, encoding: .utf8)
    try git("add", "README")
    try git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first")
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  func stub(_ name: String, _ text: String) throws {
    let file = root.appendingPathComponent("stubs/\(name)")
    try text.write(to: file, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
  }

  @discardableResult
  func git(_ arguments: String...) throws -> String {
    try run("/usr/bin/env", ["git"] + arguments, in: repository, environment: ProcessInfo.processInfo.environment).output
  }

  func commit(_ message: String) throws -> String {
    try message.write(to: repository.appendingPathComponent("README"), atomically: true, encoding: .utf8)
    try git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-am", message)
    return try git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs the install step as a workflow job would, in a fresh checkout folder.
  func install(version: String, commit: String?) throws -> (status: Int32, output: String) {
    var env = ProcessInfo.processInfo.environment
    env["PATH"] = root.appendingPathComponent("stubs").path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    env["HOME"] = root.appendingPathComponent("home").path
    env["RUNNER_TEMP"] = root.appendingPathComponent("runner").path
    env["GITHUB_PATH"] = root.appendingPathComponent("github_path").path
    env["SANDBOX"] = root.path
    env["DUET_VERSION"] = version
    env["DUET_GIT_URL"] = "file://" + repository.path
    env["DUET_COMMIT"] = commit
    return try run("/bin/bash", ["-c", GitHubWorkflow.installScript.map(\.text).joined(separator: "\n")], in: root.appendingPathComponent("work"), environment: env)
  }

  func calls() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

  func run(_ program: String, _ arguments: [String], in folder: URL, environment: [String: String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

@Suite("Installing duet in a workflow: the release binary, else a build at a ref that exists")
struct WorkflowInstallTests {
  /// Without a release binary and without the tag, the step builds the commit the
  /// writing duet named (DUET_COMMIT), not the newer default branch.
  @Test func noReleaseNoTagBuildsTheNamedCommit() throws {
    let sandbox = try InstallSandbox()
    let pinned = try sandbox.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
    _ = try sandbox.commit("second")
    let result = try sandbox.install(version: "9.9.9", commit: pinned)
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("duet built at \(pinned)"), "\(result.output)")
    #expect(sandbox.calls().contains("curl file://\(sandbox.repository.deletingPathExtension().path)/releases/download/v9.9.9/duet-9.9.9-"))
  }

  /// With the release tag present, the source build uses the tag, whatever DUET_COMMIT says.
  @Test func tagWinsOverTheCommit() throws {
    let sandbox = try InstallSandbox()
    let first = try sandbox.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
    let tagged = try sandbox.commit("tagged")
    try sandbox.git("tag", "v9.9.9")
    _ = try sandbox.commit("after")
    let result = try sandbox.install(version: "9.9.9", commit: first)
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("duet built at \(tagged)"), "\(result.output)")
  }

  /// Neither tag nor commit known: the default branch, rather than a ref that does not exist.
  @Test func neitherFallsBackToTheDefaultBranch() throws {
    let sandbox = try InstallSandbox()
    let head = try sandbox.commit("newest")
    let result = try sandbox.install(version: "9.9.9", commit: nil)
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("duet built at \(head)"), "\(result.output)")
  }

  /// The step puts duet in `$RUNNER_TEMP/duet-bin` and that folder on `PATH`
  /// (`$GITHUB_PATH`), and leaves a tree's own `tools/duet` as it was.
  @Test func installsOutsideTheTree() throws {
    let sandbox = try InstallSandbox()
    let tools = sandbox.root.appendingPathComponent("work/tools")
    try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
    try "#!/bin/sh\necho the tree's own tool\n".write(to: tools.appendingPathComponent("duet"), atomically: true, encoding: .utf8)
    let result = try sandbox.install(version: "9.9.9", commit: nil)
    #expect(result.status == 0, "\(result.output)")
    #expect(try String(contentsOf: tools.appendingPathComponent("duet"), encoding: .utf8) == "#!/bin/sh\necho the tree's own tool\n")
    let installed = sandbox.root.appendingPathComponent("runner/duet-bin/duet")
    #expect(FileManager.default.isExecutableFile(atPath: installed.path))
    let path = try String(contentsOf: sandbox.root.appendingPathComponent("github_path"), encoding: .utf8)
    #expect(path == sandbox.root.appendingPathComponent("runner/duet-bin").path + "\n")
  }

  /// A release binary for the runner is downloaded and used; nothing is built.
  @Test func releaseBinaryIsUsed() throws {
    let sandbox = try InstallSandbox()
    let os = try sandbox.run("/bin/sh", ["-c", "printf '%s-%s' \"$(uname -s | tr '[:upper:]' '[:lower:]')\" \"$(uname -m)\""], in: sandbox.root, environment: ProcessInfo.processInfo.environment).output
    let folder = sandbox.root.appendingPathComponent("pack/duet-9.9.9-\(os)/bin")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try "#!/bin/sh\necho 'duet 9.9.9 (released)'\n".write(to: folder.appendingPathComponent("duet"), atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.appendingPathComponent("duet").path)
    let pack = try sandbox.run("/bin/sh", ["-c", "tar -czf release.tar.gz -C pack duet-9.9.9-\(os)"], in: sandbox.root, environment: ProcessInfo.processInfo.environment)
    #expect(pack.status == 0, "\(pack.output)")
    let result = try sandbox.install(version: "9.9.9", commit: nil)
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("duet 9.9.9 (released)"))
    #expect(sandbox.calls().contains("curl file://\(sandbox.repository.deletingPathExtension().path)/releases/download/v9.9.9/duet-9.9.9-\(os).tar.gz"))
    #expect(!sandbox.calls().contains("swift "))
  }

  /// workflows/duet-verify.yml installs duet with exactly the generated step's script.
  @Test func templateUsesTheSameScript() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let template = try String(contentsOf: repository.appendingPathComponent("workflows/duet-verify.yml"), encoding: .utf8)
    let block = GitHubWorkflow.installScript.map { $0.isEmpty ? "" : "          " + $0.text }.joined(separator: "\n")
    #expect(template.contains("        run: |\n" + block + "\n"), "workflows/duet-verify.yml's install step differs from GitHubWorkflow.installScript")
    #expect(!template.contains("--branch \"v$DUET_VERSION\""))
  }

  /// The release workflow runs on a tag push, builds with `make dist` on Linux (checking
  /// with ldd that no libswift is needed) and on macOS, and attaches both tarballs.
  @Test func releaseWorkflow() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(contentsOf: repository.appendingPathComponent(".github/workflows/release.yml"), encoding: .utf8)
    let node = try YAMLParser.parse(text, file: "release.yml")
    #expect(node["on"]?["push"]?["tags"]?.sequence?.compactMap(\.scalar) == ["v*"])
    func runs(_ job: String) -> [String] { node["jobs"]?[job]?["steps"]?.sequence?.compactMap { $0["run"]?.scalar } ?? [] }
    #expect(runs("linux").contains("make dist"))
    #expect(runs("linux").contains { $0.contains("ldd") && $0.contains("libswift") })
    #expect(node["jobs"]?["macos"]?["runs-on"]?.scalar?.hasPrefix("macos") == true)
    #expect(runs("macos").contains { $0.contains("make dist") })
    #expect(node["jobs"]?["release"]?["needs"]?.sequence?.compactMap(\.scalar) == ["linux", "macos"])
    #expect(runs("release").contains { $0.contains("gh release create") && $0.contains("dist/*.tar.gz") })
  }

  /// DUET_COMMIT appears in the generated workflow only when the writing duet knows its commit.
  @Test func commitOnlyWhenKnown() throws {
    var options = GitHubWorkflow.Options(duetVersion: "9.8.7")
    #expect(!(try GitHubWorkflow.render(CIFixtures.manifest([CIFixtures.lane("a")]), options: options)).contains("\n  DUET_COMMIT: "))
    options.duetCommit = "0123456789ab"
    let text = try GitHubWorkflow.render(CIFixtures.manifest([CIFixtures.lane("a")]), options: options)
    let node = try YAMLParser.parse(text, file: "duet.yml")
    #expect(node["env"]?["DUET_COMMIT"]?.scalar == "0123456789ab")
  }
}
