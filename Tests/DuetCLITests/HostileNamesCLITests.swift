import Foundation
import Testing
@testable import DuetSupport

/// Reads YAML with PyYAML (a YAML 1.1 reader, as GitLab's is) and prints the
/// keys of the top level and of `jobs:` as Python sees them (`repr`, so a key
/// read as `True` or `None` shows). Fails, with the install command, when
/// PyYAML is missing.
enum PyYAML {
  static func keys(_ file: URL) throws -> (top: [String], jobs: [String]) {
    let script = """
      import sys
      try:
          import yaml
      except ImportError:
          print("PyYAML is missing: pip install pyyaml"); sys.exit(3)
      data = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
      print("\\t".join(repr(k) for k in data))
      print("\\t".join(repr(k) for k in (data.get("jobs") or {})))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      Issue.record(Comment(rawValue: "python3 with PyYAML (pip install pyyaml) could not read \(file.lastPathComponent): \(text)"))
      return ([], [])
    }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: "\t").map(String.init) }
    return (lines.first ?? [], lines.count > 1 ? lines[1] : [])
  }
}

/// Lane names the manifest accepts that YAML or GitLab read as something else
/// (issue 27, defect 3): each still gives one job per lane in both CI files.
@Suite("hostile lane names in generated CI files")
struct HostileNamesCLITests {
  static let names = ["null", "True", "false", "on", "yes", "Y", "n", "off", "No", "stages", "variables", "image", "include", "default", "workflow", "pages", "1st", "a.b"]

  static var manifest: String {
    "version: 1\nlanes:\n" + names.enumerated().map { index, name in
      "  - name: \"\(name)\"\n    sh: \"true\"\n" + (index > 0 ? "    needs: [\"\(names[index - 1])\"]\n" : "")
    }.joined()
  }

  /// With --one-job-per-lane, the GitHub workflow and the GitLab pipeline read
  /// back, with libyaml's YAML 1.1 reader (PyYAML) too, as duet's build job, one
  /// string-keyed job per lane and the history job, each keeping its lane's name
  /// and `needs:` naming the previous lane's job; both pass their published
  /// schemas, and `--check` agrees. Grouped, the lanes keep their names on the
  /// jobs' `duet verify` lines.
  @Test func everyAcceptedNameGivesOneJobPerLane() throws {
    let tree = try FixtureTree(manifest: Self.manifest)
    for target in ["github", "gitlab"] {
      let write = try tree.duet("workflow", target, "--one-job-per-lane")
      #expect(write.status == 0, "\(write.stderr)")
      #expect(try tree.duet("workflow", target, "--one-job-per-lane", "--check").status == 0)
    }
    let github = tree.url.appendingPathComponent(".github/workflows/duet.yml")
    let gitlab = tree.url.appendingPathComponent(".gitlab-ci.yml")
    // Every name here but `a.b` is unsafe as an id, so each gets the `lane_` prefix.
    let expected = Self.names.map { $0 == "a.b" ? "a_b" : "lane_" + $0 }
    let githubKeys = try PyYAML.keys(github)
    #expect(githubKeys.jobs == (["duet-build-linux"] + expected + ["duet-history"]).map { "'\($0)'" })
    let gitlabKeys = try PyYAML.keys(gitlab)
    #expect(gitlabKeys.top == (["stages", "variables", ".duet", "duet-build-linux"] + expected + ["duet-history"]).map { "'\($0)'" })
    let text = try tree.read(".github/workflows/duet.yml")
    for (index, name) in Self.names.enumerated() where index > 0 {
      #expect(text.contains("  \(expected[index]):\n    name: \"\(name)\"") || text.contains("  \(expected[index]):\n    name: \(name)\n"), "\(name)")
      #expect(text.contains("    needs: [duet-build-linux, \(expected[index - 1])]"), "\(name)")
    }
    try SchemaCheck.validate(github, schema: "vendor.github-workflows")
    try SchemaCheck.validate(gitlab, schema: "vendor.gitlab-ci")
    #expect(try tree.duet("workflow", "github").status == 0)
    let grouped = try tree.read(".github/workflows/duet.yml")
    for name in Self.names { #expect(grouped.contains("--lane \(ShellWord.quoted(name)) "), "\(name)") }
    try SchemaCheck.validate(github, schema: "vendor.github-workflows")
  }

  /// With --one-job-per-lane, two lanes that map to one job id are refused with
  /// both names and exit 2, and nothing is written (grouped jobs are not named
  /// after lanes, so nothing clashes there).
  @Test func lanesSharingAJobIDAreRefused() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a.b, sh: 'true'}\n  - {name: a_b, sh: 'true'}\n")
    for target in ["github", "gitlab"] {
      let run = try tree.duet("workflow", target, "--one-job-per-lane")
      #expect(run.status == 2)
      #expect(run.stderr.contains("lanes 'a.b' and 'a_b' would both be the CI job 'a_b'"), "\(run.stderr)")
    }
    #expect(!tree.exists(".github/workflows/duet.yml") && !tree.exists(".gitlab-ci.yml"))
    // GitHub compares job ids without case, so `true` and `True` clash too.
    try tree.write("lanes/manifest.yaml", "version: 1\nlanes:\n  - {name: \"true\", sh: 'true'}\n  - {name: \"True\", sh: 'true'}\n")
    let clash = try tree.duet("workflow", "github", "--one-job-per-lane")
    #expect(clash.status == 2 && clash.stderr.contains("lanes 'true' and 'True'"), "\(clash.stderr)")
  }
}
