import Foundation
import Testing
@testable import DuetApp
@testable import DuetCI
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Graph rendering and the GitHub workflow")
struct GraphAndWorkflowTests {
  static let lanes = [
    CIFixtures.lane("design-tokens"),
    CIFixtures.lane("kotlin", needs: ["design-tokens"]),
    CIFixtures.lane("swift.ui", needs: ["design-tokens"]),
    CIFixtures.lane("theme", needs: ["kotlin", "swift.ui"]),
    CIFixtures.lane("swift_kit"),
    CIFixtures.lane("1st"),
    CIFixtures.lane("duet-history"),
  ]

  /// DOT lists every lane and one edge per need, from the need to the lane.
  @Test func dot() {
    let text = GraphRender.dot(CIFixtures.manifest(Self.lanes).graph)
    #expect(text.hasPrefix("digraph lanes {\n"))
    #expect(text.hasSuffix("}\n"))
    #expect(text.contains("  \"swift.ui\";\n"))
    let edges = text.split(separator: "\n").filter { $0.contains(" -> ") }
    #expect(edges == ["  \"design-tokens\" -> \"kotlin\";", "  \"design-tokens\" -> \"swift.ui\";", "  \"kotlin\" -> \"theme\";", "  \"swift.ui\" -> \"theme\";"])
    #expect(GraphRender.dotID("a\"b\\c") == "\"a\\\"b\\\\c\"")
  }

  /// Mermaid gives each lane a node with its name as label and one arrow per need.
  @Test func mermaid() {
    let text = GraphRender.mermaid(CIFixtures.manifest(Self.lanes).graph)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first == "flowchart LR")
    #expect(lines.contains("  n2[\"swift.ui\"]"))
    #expect(lines.filter { $0.contains("-->") } == ["  n0 --> n1", "  n0 --> n2", "  n1 --> n3", "  n2 --> n3"])
    #expect(GraphRender.mermaidLabel("a\"<b>") == "a#quot;#lt;b#gt;")
  }

  /// Job ids are valid, unique without case, the lane's name where it is a safe id, and never the history job's id.
  @Test func jobIDs() throws {
    let ids = try GitHubWorkflow.jobIDs(for: Self.lanes.map(\.name))
    #expect(ids == ["design-tokens", "kotlin", "swift_ui", "theme", "swift_kit", "lane_1st", "lane_duet-history"])
    #expect(ids.allSatisfy(GitHubWorkflow.isValidJobID))
    #expect(Set(ids.map { $0.lowercased() }).count == ids.count)
    #expect(!GitHubWorkflow.isValidJobID("1a") && !GitHubWorkflow.isValidJobID("a.b") && GitHubWorkflow.isValidJobID("_a-b"))
  }

  /// Two lanes that would share a job id (by case, or `.` against `_`, or a
  /// `.` against `_`, or a prefixed name against a lane already called so) are refused, naming both;
  /// before, the second was silently renamed `-2`.
  @Test func clashingJobIDsAreRefused() {
    #expect(throws: GitHubWorkflow.JobIDClash(first: "A", second: "a", id: "a", isSummaryJob: false)) { try GitHubWorkflow.jobIDs(for: ["A", "a"]) }
    #expect(throws: GitHubWorkflow.JobIDClash(first: "x.y", second: "x_y", id: "x_y", isSummaryJob: false)) { try GitHubWorkflow.jobIDs(for: ["x.y", "x_y"]) }
    #expect(throws: GitHubWorkflow.JobIDClash(first: "null", second: "lane_null", id: "lane_null", isSummaryJob: false)) { try GitHubWorkflow.jobIDs(for: ["null", "lane_null"]) }
    let clash = GitHubWorkflow.JobIDClash(first: "A", second: "a", id: "a", isSummaryJob: false)
    #expect(clash.description.contains("'A' and 'a'") && clash.description.contains("rename"))
  }

  func workflow(_ lanes: [Lane]) throws -> (text: String, node: YAMLNode) {
    var options = GitHubWorkflow.Options(duetVersion: "9.8.7")
    options.duetGitURL = "https://example.invalid/duet.git"
    options.jobs.oneJobPerLane = true
    let text = try GitHubWorkflow.render(CIFixtures.manifest(lanes), options: options)
    return (text, try YAMLParser.parse(text, file: "duet.yml"))
  }

  /// Parsed back with libyaml, with one job per lane the workflow has duet's
  /// build job, a job per lane whose needs are the build and the manifest's
  /// needs, and a last job that needs them all; lane jobs check out without
  /// credentials, get duet from the build job, and run it from PATH.
  @Test func needsMirrorTheDAG() throws {
    let manifest = CIFixtures.manifest(Self.lanes)
    let (_, node) = try workflow(Self.lanes)
    let ids = try GitHubWorkflow.jobIDs(for: manifest.lanes.map(\.name))
    let jobs = try #require(node["jobs"]?.mapping)
    #expect(jobs.compactMap(\.key.scalar) == ["duet-build-linux"] + ids + [GitHubWorkflow.summaryJobID])
    let build = try #require(node["jobs"]?["duet-build-linux"]?["steps"]?.sequence)
    #expect(build[0]["uses"]?.scalar == PinnedAction.cache.uses.text.components(separatedBy: " #")[0])
    #expect(build[0]["with"]?["key"]?.scalar?.hasPrefix("duet-9.8.7-") == true)
    #expect(build[1]["run"]?.scalar?.contains("swift build -c release") == true)
    for (i, lane) in manifest.lanes.enumerated() {
      let job = try #require(node["jobs"]?[ids[i]])
      let needs = job["needs"]?.sequence?.compactMap(\.scalar) ?? []
      #expect(needs == ["duet-build-linux"] + manifest.graph.needs[i].map { ids[$0] }, "\(lane.name)")
      #expect(job["name"]?.scalar == lane.name)
      let steps = try #require(job["steps"]?.sequence)
      #expect(steps.first?["uses"]?.scalar == "actions/checkout@" + PinnedAction.checkout.commit)
      #expect(steps.first?["with"]?["persist-credentials"]?.scalar == "false")
      #expect(steps[1]["with"]?["name"]?.scalar == "duet-linux")
      #expect(!steps.contains { $0["run"]?.scalar?.contains("swift build") == true })
      let verify = steps.compactMap { $0["run"]?.scalar }.first { $0.hasPrefix("duet verify") }
      let upstream = manifest.graph.needs[i].map { " --upstream " + ShellWord.quoted("\(ids[$0])=.duet/upstream/duet-history-\(ids[$0])/history-\(ids[$0]).sqlite").text }.joined()
      #expect(verify == "duet verify --lane \(ShellWord.quoted(lane.name)) --no-deps --strict --junit .duet/ci/junit-\(ids[i]).xml --seal" + upstream)
      // Issue 38: the job runs whatever its needs did; duet gates each lane.
      #expect(job["if"]?.scalar == "${{ !cancelled() && needs.duet-build-linux.result == 'success' }}")
      let upload = try #require(steps.last)
      #expect(upload["uses"]?.scalar == "actions/upload-artifact@" + PinnedAction.uploadArtifact.commit)
      #expect(upload["if"]?.scalar == "always()")
      #expect(upload["with"]?["path"]?.scalar == ".duet/ci/")
      #expect(upload["with"]?["include-hidden-files"]?.scalar == "true")
    }
    let last = try #require(node["jobs"]?[GitHubWorkflow.summaryJobID])
    #expect(last["if"]?.scalar == "always()")
    #expect(last["needs"]?.sequence?.compactMap(\.scalar) == ["duet-build-linux"] + ids)
    let runs = last["steps"]?.sequence?.compactMap { $0["run"]?.scalar } ?? []
    #expect(runs.contains { $0.contains("duet history merge") })
    #expect(runs.contains("duet flaky"))
    let failStep = try #require(last["steps"]?.sequence?.last)
    #expect(failStep["if"]?.scalar?.contains("contains(needs.*.result, 'failure')") == true)
    #expect(failStep["run"]?.scalar?.contains("exit 1") == true)
    #expect(node["env"]?["DUET_VERSION"]?.scalar == "9.8.7")
    #expect(node["env"]?["DUET_GIT_URL"]?.scalar == "https://example.invalid/duet.git")
  }

  /// The same manifest gives the same bytes; another version or another need gives other bytes.
  @Test func deterministic() throws {
    let first = try workflow(Self.lanes).text
    #expect(try workflow(Self.lanes).text == first)
    var changed = Self.lanes
    changed[4].needs = ["theme"]
    #expect(try workflow(changed).text != first)
    let other = try GitHubWorkflow.render(CIFixtures.manifest(Self.lanes), options: .init(duetVersion: "9.8.8"))
    #expect(other != first)
    #expect(!first.contains("\t"))
  }

  /// Without a git URL the workflow reads the repository variable, and a manifest with no lanes still gives a valid workflow.
  @Test func defaultsAndEmptyManifest() throws {
    let text = try GitHubWorkflow.render(CIFixtures.manifest([]), options: .init(duetVersion: "1.0.0"))
    let node = try YAMLParser.parse(text, file: "duet.yml")
    #expect(node["env"]?["DUET_GIT_URL"]?.scalar == "${{ vars.DUET_GIT_URL }}")
    #expect(node["jobs"]?.mapping?.compactMap(\.key.scalar) == ["duet-build-linux", GitHubWorkflow.summaryJobID])
    #expect(node["jobs"]?[GitHubWorkflow.summaryJobID]?["needs"]?.sequence?.compactMap(\.scalar) == ["duet-build-linux"])
  }

  /// Scalars that YAML would read as something else are quoted.
  @Test func quoting() {
    #expect(YAMLText.scalar("kotlin") == "kotlin")
    #expect(YAMLText.scalar("1.0") == "\"1.0\"")
    #expect(YAMLText.scalar("yes") == "\"yes\"")
    #expect(YAMLText.scalar("a: b") == "\"a: b\"")
    #expect(YAMLText.scalar("-x") == "\"-x\"")
    #expect(ShellWord.quoted("a'b") == "'a'\\''b'")
  }
}
