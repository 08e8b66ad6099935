@testable import DuetFuzzSupport
import Foundation
import Testing
@testable import DuetCI

/// `duet workflow gitlab`: one job per lane on the right runners, the store on
/// GitLab's cache, and a file GitLab's published schema accepts.
@Suite("duet workflow gitlab, end to end")
struct GitLabPipelineCLITests {
  static let manifest = """
    version: 1
    runs-on: {macos: [macos-14], linux: ubuntu-24.04}
    lanes:
      - name: tokens
        run: design-tokens --check
      - name: ios
        sh: xcodebuild test
        platforms: [macos]
        needs: [tokens]
      - name: android
        sh: ./gradlew test
        platforms: [linux]
        needs: [tokens]
      - name: lint
        sh: "true"
        runs-on: [self-hosted, big]
    """

  /// The job of `id`: its lines up to the next job.
  func job(_ id: String, in text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: Substring("\(id):")) else { return "" }
    let rest = lines[(start + 1)...].prefix { $0.isEmpty || $0.hasPrefix(" ") }
    return ([lines[start]] + rest).joined(separator: "\n")
  }

  /// With one job per lane, macOS-only lanes get the macOS tags and no Linux
  /// image; Linux and anywhere lanes go to Linux in the Swift 6.3 image; a lane's
  /// own runs-on wins; needs mirror the DAG after duet's build; --check gates drift.
  @Test func jobsOnTheirRunners() throws {
    let tree = try FixtureTree(manifest: GitLabPipelineCLITests.manifest)
    let write = try tree.duet("workflow", "gitlab", "--one-job-per-lane")
    #expect(write.status == 0, "\(write.stderr)")
    #expect(write.stdout == "duet workflow gitlab: wrote .gitlab-ci.yml (4 lane(s) in 4 job(s), duet's build and duet-history)\n")
    let text = try tree.read(".gitlab-ci.yml")
    #expect(job("ios", in: text).contains("  tags: [macos-14]"))
    #expect(!job("ios", in: text).contains("image:"))
    // Issue 38: every job it needs hands on its store, whose verdicts gate the lanes.
    #expect(job("ios", in: text).contains("  needs: [{job: duet-build-macos, artifacts: true}, {job: tokens, artifacts: true}]"))
    #expect(job("ios", in: text).contains("--upstream tokens=.duet/ci/history-tokens.sqlite"))
    #expect(job("duet-build-macos", in: text).contains("  tags: [macos-14]"))
    #expect(job("android", in: text).contains("  tags: [ubuntu-24.04]"))
    #expect(job("android", in: text).contains("  image: swift:6.3.1"))
    #expect(job("lint", in: text).contains("  tags: [self-hosted, big]"))
    #expect(job("tokens", in: text).contains("  needs: [{job: duet-build-linux, artifacts: true}]"))
    #expect(job("tokens", in: text).contains("duet verify --lane tokens --no-deps --strict --junit .duet/ci/junit-tokens.xml"))
    #expect(!text.contains("tools/duet"))
    #expect(job("duet-history", in: text).contains("      fallback_keys:"))
    #expect(job("duet-history", in: text).contains("      policy: pull-push"))
    #expect(try tree.duet("workflow", "gitlab", "--one-job-per-lane", "--check").status == 0)
    #expect(try tree.duet("workflow", "gitlab", "--check").status == 1)
    try tree.write("lanes/manifest.yaml", GitLabPipelineCLITests.manifest + "\n  - {name: extra, sh: 'true'}\n")
    let stale = try tree.duet("workflow", "gitlab", "--one-job-per-lane", "--check")
    #expect(stale.status == 1)
    #expect(stale.stderr.contains("duet workflow gitlab --check: .gitlab-ci.yml is stale"))
    try tree.write("lanes/manifest.yaml", GitLabPipelineCLITests.manifest)
    try SchemaCheck.validate(tree.url.appendingPathComponent(".gitlab-ci.yml"), schema: "vendor.gitlab-ci")
  }
}

/// `duet workflow github`: each lane on its platform's runner, the history
/// store restored before the lanes and saved after the merge, valid per GitHub's schema.
@Suite("duet workflow github runners and cache, end to end")
struct GitHubRunnersCLITests {
  /// macOS-only lanes run on macOS labels, Linux and anywhere lanes on Linux ones,
  /// a lane's own runs-on wins; every lane job restores the store; the last job saves it.
  @Test func jobsOnTheirRunnersWithTheStoreCached() throws {
    let tree = try FixtureTree(manifest: GitLabPipelineCLITests.manifest)
    #expect(try tree.duet("workflow", "github", "--one-job-per-lane").status == 0)
    let text = try tree.read(".github/workflows/duet.yml")
    func job(_ id: String) -> String {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      guard let start = lines.firstIndex(of: Substring("  \(id):")) else { return "" }
      let rest = lines[(start + 1)...].prefix { $0.isEmpty || $0.hasPrefix("    ") }
      return rest.joined(separator: "\n")
    }
    #expect(job("ios").contains("    runs-on: macos-14"))
    #expect(job("android").contains("    runs-on: ubuntu-24.04"))
    #expect(job("tokens").contains("    runs-on: ubuntu-24.04"))
    #expect(job("lint").contains("    runs-on: [self-hosted, big]"))
    for lane in ["tokens", "ios", "android", "lint"] {
      #expect(job(lane).contains("uses: actions/cache/restore@" + PinnedAction.cacheRestore.commit), "\(lane)")
      #expect(job(lane).contains("duet-history-${{ github.event.repository.default_branch }}-"), "\(lane)")
    }
    #expect(job("duet-history").contains("uses: actions/cache/save@" + PinnedAction.cacheSave.commit))
    try SchemaCheck.validate(tree.url.appendingPathComponent(".github/workflows/duet.yml"), schema: "vendor.github-workflows")
  }

  /// The workflows generated for the bundled example trees pass both CI systems' schemas.
  @Test func exampleTreesGenerateValidFiles() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
    var generated: [String: [URL]] = [:]
    var trees: [FixtureTree] = []
    for example in ["Examples/Foyer", "Examples/Atrium"] {
      let tree = try FixtureTree()
      trees.append(tree)
      let copy = tree.url.appendingPathComponent("tree")
      try FileManager.default.copyItem(at: repository.appendingPathComponent(example), to: copy)
      for (system, file, schema) in [("github", ".github/workflows/duet.yml", "vendor.github-workflows"), ("gitlab", ".gitlab-ci.yml", "vendor.gitlab-ci")] {
        let run = try runDuet(["workflow", system], in: copy)
        #expect(run.status == 0, "\(example) \(system): \(run.stderr)")
        generated[schema, default: []].append(copy.appendingPathComponent(file))
      }
    }
    for (schema, files) in generated.sorted(by: { $0.key < $1.key }) { try SchemaCheck.validate(files, schema: schema) }
  }

  /// This repository's own workflows and the templates for adopters pass GitHub's schema.
  @Test func repositoryWorkflowsAreValid() throws {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL
    let paths = [".github/workflows/verify.yml", ".github/workflows/release.yml", "workflows/duet-lanes.yml", "workflows/duet-verify.yml"]
    try SchemaCheck.validate(paths.map { repository.appendingPathComponent($0) }, schema: "vendor.github-workflows")
  }
}

/// `check-jsonschema` with one of its built-in CI schemas (on PATH or in
/// `.build/venv/bin`). Missing, it fails the test with the command that installs it.
/// Several files go to one call (Python starts once); any file that fails the
/// schema fails the call, and its output names the file.
enum SchemaCheck {
  static func validate(_ file: URL, schema: String) throws {
    try validate([file], schema: schema)
  }

  static func validate(_ files: [URL], schema: String) throws {
    guard let program = TestTools.find("check-jsonschema") else {
      Issue.record(Comment(rawValue: TestTools.missing("check-jsonschema", for: "validating generated CI files")))
      return
    }
    let check = Process()
    check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    check.arguments = [program, "--builtin-schema", schema] + files.map(\.path)
    let output = Pipe()
    check.standardOutput = output
    check.standardError = output
    try check.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    check.waitUntilExit()
    #expect(check.terminationStatus == 0, "check-jsonschema \(schema) \(files.map(\.lastPathComponent).joined(separator: " ")): \(text)")
  }
}
