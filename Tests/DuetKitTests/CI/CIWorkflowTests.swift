import Foundation
import Testing
@testable import DuetCI
@testable import DuetModel
@testable import DuetSupport

/// The defects of issue 29 in the generated GitHub and GitLab files, each
/// checked on the text as libyaml reads it back.
@Suite("Generated CI: toolchains, one duet, hand-offs, grouping, hardening")
struct CIWorkflowTests {
  /// A tree like tutorial7's: an XCFramework lane whose output a macOS Swift lane reads, a Kotlin lane.
  static var lanes: [Lane] {
    var framework = CIFixtures.lane("xcframework-Kit")
    framework.outputs = ["src-kmp/apple-umbrella/build/XCFrameworks"]
    var swift = CIFixtures.lane("swift-Kit", needs: ["xcframework-Kit"])
    swift.platforms = [.macos]
    return [framework, swift, CIFixtures.lane("kotlin")]
  }

  static let toolchains = CIToolchains(jdk: 25, gradle: true)

  static func github(_ lanes: [Lane], oneJobPerLane: Bool = false, durations: [String: Double] = [:]) throws -> (text: String, node: YAMLNode) {
    var options = GitHubWorkflow.Options(duetVersion: "9.8.7")
    options.toolchains = toolchains
    options.jobs.oneJobPerLane = oneJobPerLane
    options.jobs.durations = durations
    let text = try GitHubWorkflow.render(CIFixtures.manifest(lanes), options: options)
    return (text, try YAMLParser.parse(text, file: "duet.yml"))
  }

  static func gitlab(_ lanes: [Lane]) throws -> (text: String, node: YAMLNode) {
    var options = GitLabPipeline.Options(duetVersion: "9.8.7")
    options.toolchains = toolchains
    let text = try GitLabPipeline.render(CIFixtures.manifest(lanes), options: options)
    return (text, try YAMLParser.parse(text, file: ".gitlab-ci.yml"))
  }

  static func steps(_ node: YAMLNode, _ job: String) -> [YAMLNode] { node["jobs"]?[job]?["steps"]?.sequence ?? [] }

  /// Issue 37/38: the lane jobs' `duet verify` steps get the remote cache from
  /// the repository's variable and secrets, in the step's own `env:` (never the
  /// workflow's or the job's, so the secrets reach only the steps that use
  /// them), and upload to it; GitLab lane jobs upload too and the file says
  /// which CI/CD variables to set (GitLab passes them to every job by itself).
  /// Issue 55: the history job's `duet history merge` step uploads the
  /// pipeline's runs, so it gets them too (GitLab: the upload switch).
  @Test func remoteCacheReachesOnlyTheVerifySteps() throws {
    let (text, node) = try Self.github(Self.lanes)
    let expected = [
      "DUET_REMOTE_CACHE": "${{ vars.DUET_REMOTE_CACHE }}",
      "DUET_REMOTE_CACHE_UPLOAD": "1",
      "DUET_REMOTE_CACHE_TOKEN": "${{ secrets.DUET_REMOTE_CACHE_TOKEN }}",
      "DUET_REMOTE_CACHE_KEY": "${{ secrets.DUET_REMOTE_CACHE_KEY }}",
    ]
    var verifySteps = 0
    for (id, job) in node["jobs"]?.mapping?.compactMap({ pair in pair.key.scalar.map { ($0, pair.value) } }) ?? [] {
      #expect(job["env"]?["DUET_REMOTE_CACHE_TOKEN"] == nil, "\(id)")
      for step in job["steps"]?.sequence ?? [] {
        let env = Dictionary(uniqueKeysWithValues: (step["env"]?.mapping ?? []).compactMap { pair in pair.key.scalar.flatMap { k in pair.value.scalar.map { (k, $0) } } })
        if step["run"]?.scalar?.hasPrefix("duet verify") == true || step["name"]?.scalar == "duet history merge" {
          verifySteps += 1
          #expect(env == expected, "\(id): \(step["run"]?.scalar ?? "")")
        } else {
          #expect(env["DUET_REMOTE_CACHE_TOKEN"] == nil && env["DUET_REMOTE_CACHE_KEY"] == nil, "\(id)")
        }
      }
    }
    #expect(verifySteps >= 3)
    #expect(node["env"]?["DUET_REMOTE_CACHE_TOKEN"] == nil)
    #expect(text.components(separatedBy: "secrets.").count - 1 == 2 * verifySteps)
    let (lab, labNode) = try Self.gitlab(Self.lanes)
    #expect(labNode["linux-1"]?["variables"]?["DUET_REMOTE_CACHE_UPLOAD"]?.scalar == "1")
    #expect(labNode["duet-history"]?["variables"]?["DUET_REMOTE_CACHE_UPLOAD"]?.scalar == "1")
    #expect(lab.contains("set the CI/CD variables DUET_REMOTE_CACHE (its URL)"))
  }

  /// Issue 38: a job whose lanes' timeouts add up to more than 360 minutes
  /// (GitHub's cap on its hosted runners, which refuse more) gets 360 and a
  /// comment saying what its lanes would need; GitLab keeps the sum.
  @Test func longJobsAreClampedToGitHubsCap() throws {
    var long = CIFixtures.lane("long")
    long.timeout = 400 * 60
    let (text, node) = try Self.github([long], oneJobPerLane: true)
    #expect(node["jobs"]?["long"]?["timeout-minutes"]?.scalar == "360", "\(text)")
    #expect(text.contains("    # Its lanes may take 430 minutes; GitHub's hosted runners stop a job at 360.\n    timeout-minutes: 360\n"))
    let short = try Self.github([CIFixtures.lane("short")], oneJobPerLane: true)
    #expect(short.node["jobs"]?["short"]?["timeout-minutes"]?.scalar == "60")
    #expect(!short.text.contains("hosted runners stop"))
    let (_, lab) = try Self.gitlab([long])
    #expect(lab["linux-1"]?["timeout"]?.scalar == "430 minutes")
  }

  /// Defect 3: no job writes `tools/duet` (a Duet tree's own CLI); duet goes to
  /// the runner's temp folder (GitHub) or `.duet-bin` kept out of git (GitLab)
  /// and runs from PATH.
  @Test func duetIsInstalledOutsideTheTree() throws {
    let github = try Self.github(Self.lanes).text
    let gitlab = try Self.gitlab(Self.lanes).text
    for text in [github, gitlab] {
      #expect(!text.contains("tools/duet"))
      #expect(!text.contains("install -m 755 \"$bin\" tools"))
    }
    #expect(github.contains("echo \"$RUNNER_TEMP/duet-bin\" >> \"$GITHUB_PATH\""))
    #expect(gitlab.contains("- export PATH=\"$CI_PROJECT_DIR/.duet-bin:$PATH\""))
    #expect(gitlab.contains(".git/info/exclude"))
  }

  /// Defect 2: every lane job sets up the JDK doctor knows and caches Gradle and
  /// Kotlin/Native; macOS jobs select Xcode; GitLab's Linux image is Swift 6.3
  /// with the JDK installed; both systems run lanes with --strict and --junit.
  @Test func toolchainsAreSetUp() throws {
    let (_, node) = try Self.github(Self.lanes)
    for job in ["linux-1", "macos-1"] {
      let steps = Self.steps(node, job)
      let java = try #require(steps.first { $0["uses"]?.scalar?.hasPrefix("actions/setup-java@") == true }, "\(job)")
      #expect(java["with"]?["java-version"]?.scalar == "25")
      let cache = try #require(steps.first { $0["name"]?.scalar == "Cache Gradle and Kotlin/Native" })
      #expect(cache["with"]?["path"]?.scalar == "~/.gradle/caches\n~/.gradle/wrapper\n~/.konan\n")
      #expect(steps.contains { $0["name"]?.scalar == "Select Xcode" } == (job == "macos-1"))
      #expect(steps.contains { $0["run"]?.scalar?.hasPrefix("duet verify ") == true && $0["run"]!.scalar!.contains(" --strict --junit ") })
    }
    let (gitlab, lab) = try Self.gitlab(Self.lanes)
    #expect(lab["linux-1"]?["image"]?.scalar == "swift:6.3.1")
    #expect(!gitlab.contains("swift:6.1"))
    let script = lab["linux-1"]?["script"]?.sequence?.compactMap(\.scalar) ?? []
    #expect(script.contains { $0.contains("apt-get install -y -q openjdk-25-jdk-headless") })
    #expect(script.contains { $0.hasPrefix("duet verify ") && $0.contains(" --strict --junit ") })
    let mac = lab["macos-1"]?["script"]?.sequence?.compactMap(\.scalar) ?? []
    #expect(mac.contains { $0.contains("brew install --quiet openjdk@25") })
    #expect(mac.contains { $0.contains("xcode-select --switch") })
    #expect(lab["variables"]?["KONAN_DATA_DIR"]?.scalar == "$CI_PROJECT_DIR/.konan")
  }

  /// Defect 6: the token reads only, checkout leaves no credentials, and every
  /// action is pinned to a full commit with its tag as a comment.
  @Test func workflowIsHardened() throws {
    let (text, node) = try Self.github(Self.lanes)
    #expect(node["permissions"]?["contents"]?.scalar == "read")
    let uses = text.split(separator: "\n").filter { $0.contains("uses: ") }
    #expect(!uses.isEmpty)
    let pinned = try Regex(#"uses: [a-z/-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$"#)
    for line in uses { #expect(line.contains(pinned), "\(line)") }
    let checkouts = node["jobs"]?.mapping?.flatMap { $0.value["steps"]?.sequence ?? [] }.filter { $0["uses"]?.scalar?.hasPrefix("actions/checkout@") == true } ?? []
    #expect(!checkouts.isEmpty)
    #expect(checkouts.allSatisfy { $0["with"]?["persist-credentials"]?.scalar == "false" })
    #expect(PinnedAction.all.allSatisfy { $0.commit.count == 40 && $0.version.hasPrefix("v") })
  }

  /// Defect 4: duet is built in one job per platform and every other job
  /// downloads it; the 60-line installer appears once per build job only.
  @Test func duetIsBuiltOnce() throws {
    let lanes = (1...8).map { CIFixtures.lane("lane\($0)") } + Self.lanes
    let (text, node) = try Self.github(lanes, oneJobPerLane: true)
    #expect(text.components(separatedBy: "swift build -c release --package-path").count - 1 == 2 * 2)
    for (id, job) in node["jobs"]?.mapping?.compactMap({ pair in pair.key.scalar.map { ($0, pair.value) } }) ?? [] where !id.hasPrefix("duet-build") {
      let needs = job["needs"]?.sequence?.compactMap(\.scalar) ?? []
      #expect(needs.contains { $0.hasPrefix("duet-build-") }, "\(id)")
      #expect(job["steps"]?.sequence?.contains { $0["name"]?.scalar == "Download duet" } == true, "\(id)")
    }
    let (lab, labNode) = try Self.gitlab(lanes)
    #expect(lab.components(separatedBy: "swift build -c release").count - 1 == 2)
    #expect(labNode["duet-build-linux"]?["artifacts"]?["paths"]?.sequence?.compactMap(\.scalar) == [".duet-bin/duet"])
  }

  /// Defect 1: the job of a lane whose `outputs:` a lane on another job reads
  /// packs and uploads them, and the reading job downloads and unpacks them
  /// before its lanes run; the producer may be cached (its outputs are
  /// restored). GitLab hands them on as artifacts its needs fetch.
  @Test func outputsAreHandedOn() throws {
    let (_, node) = try Self.github(Self.lanes)
    let producer = Self.steps(node, "linux-1")
    let pack = try #require(producer.first { $0["name"]?.scalar == "Pack the outputs later jobs read" })
    #expect(pack["run"]?.scalar?.contains("for path in src-kmp/apple-umbrella/build/XCFrameworks;") == true)
    // Issue 38: a failing lane of the producing job does not keep the outputs from the jobs that read them.
    #expect(pack["if"]?.scalar == "${{ !cancelled() }}")
    #expect(producer.contains { $0["with"]?["name"]?.scalar == "duet-outputs-linux-1" && $0["if"]?.scalar == "${{ !cancelled() }}" })
    // Issue 51, item 16: a cached pass restores its outputs, so the producer is cached like any lane.
    #expect(producer.contains { $0["run"]?.scalar == "duet verify --lane xcframework-Kit --no-deps --strict --junit .duet/ci/junit-linux-1-outputs.xml --seal" })
    #expect(producer.contains { $0["run"]?.scalar == "duet verify --lane kotlin --no-deps --strict --junit .duet/ci/junit-linux-1.xml --seal" })
    let consumer = Self.steps(node, "macos-1")
    let download = try #require(consumer.firstIndex { $0["with"]?["pattern"]?.scalar == "duet-outputs-linux-1" })
    let verify = try #require(consumer.firstIndex { $0["run"]?.scalar?.hasPrefix("duet verify") == true })
    #expect(download < verify)
    let (_, lab) = try Self.gitlab(Self.lanes)
    #expect(lab["linux-1"]?["artifacts"]?["paths"]?.sequence?.compactMap(\.scalar).contains("src-kmp/apple-umbrella/build/XCFrameworks") == true)
    #expect(lab["macos-1"]?["needs"]?.sequence?.contains { $0["job"]?.scalar == "linux-1" && $0["artifacts"]?.scalar == "true" } == true)
    let script = lab["linux-1"]?["script"]?.sequence?.compactMap(\.scalar) ?? []
    #expect(script.contains { $0.contains("--lane xcframework-Kit") } && !script.contains { $0.contains("--no-cache") }, "\(script)")
  }

  /// Defect 5: 200 independent lanes without durations are one job; the same
  /// lanes with durations split where the longest job plus the runners' starts
  /// is least, never past the cap; --one-job-per-lane keeps one each.
  @Test func lanesAreGroupedIntoJobs() throws {
    let lanes = (1...200).map { CIFixtures.lane("lane\($0)") }
    let manifest = CIFixtures.manifest(lanes)
    let labels: (Lane) -> [String] = { _ in ["ubuntu-latest"] }
    #expect(try CIJobPlan.make(manifest, options: .init(), labels: labels).jobs.count == 1)
    var timed = CIJobPlan.Options()
    timed.durations = Dictionary(uniqueKeysWithValues: lanes.map { ($0.name, 30.0) })
    let split = try CIJobPlan.make(manifest, options: timed, labels: labels)
    // 6,000 s of work: 10 jobs of 600 s cost 600 + 10 × 60 = 1,200 s, less than any other count
    // (8 jobs: 750 + 480; 12 jobs: 510 + 720).
    #expect(split.jobs.count == 10)
    #expect(split.jobs.flatMap(\.lanes).sorted() == Array(0..<200))
    timed.durations = Dictionary(uniqueKeysWithValues: lanes.map { ($0.name, 300.0) })
    let capped = try CIJobPlan.make(manifest, options: timed, labels: labels)
    #expect(capped.jobs.count == CIJobPlan.maxJobsPerGroup)
    timed.durations = Dictionary(uniqueKeysWithValues: lanes.map { ($0.name, 0.5) })
    #expect(try CIJobPlan.make(manifest, options: timed, labels: labels).jobs.count == 1)
    var perLane = CIJobPlan.Options()
    perLane.oneJobPerLane = true
    #expect(try CIJobPlan.make(manifest, options: perLane, labels: labels).jobs.map(\.id) == lanes.map(\.name))
    let text = try Self.github(lanes).text
    #expect(text.components(separatedBy: "\n    runs-on:").count - 1 <= 20 + 2)
  }

  /// Lanes of one job never need each other, and a job needs exactly the jobs of its lanes' needs.
  @Test func groupsRespectTheDAG() throws {
    var lanes = Self.lanes + [CIFixtures.lane("report", needs: ["kotlin", "swift-Kit"])]
    lanes.append(CIFixtures.lane("late", needs: ["report"]))
    let manifest = CIFixtures.manifest(lanes)
    let plan = try CIJobPlan.make(manifest, options: .init()) { $0.platforms == [.macos] ? ["macos-latest"] : ["ubuntu-latest"] }
    for (j, job) in plan.jobs.enumerated() {
      for lane in job.lanes {
        for need in manifest.graph.needs[lane] {
          #expect(plan.jobOfLane[need] != j)
          #expect(job.needs.contains(plan.jobOfLane[need]))
          #expect(plan.jobOfLane[need] < j)
        }
      }
    }
    #expect(plan.jobs.map(\.id) == ["linux-1", "macos-1", "linux-2", "linux-3"])
  }

  /// `outputs:` takes paths inside the tree, one or a list; an absolute path,
  /// a `..` part or a glob is reported at its line.
  @Test func outputsInTheManifest() throws {
    func load(_ outputs: String) throws -> Result<Manifest, ManifestError> {
      let text = "version: 1\nlanes:\n  - name: a\n    sh: 'true'\n    outputs: \(outputs)\n"
      let node = try YAMLParser.parse(text, file: "lanes/manifest.yaml")
      do { return .success(try ManifestLoader.parse(node, path: "lanes/manifest.yaml", builtins: [:])) } catch { return .failure(error) }
    }
    #expect(try load("[build/Kit.xcframework, out/]").get().lanes[0].outputs == ["build/Kit.xcframework", "out"])
    #expect(try load("build/X").get().lanes[0].outputs == ["build/X"])
    for bad in ["[/abs]", "[../up]", "[a/../b]", "['build/*.xcframework']"] {
      guard case .failure(let error) = try load(bad) else { Issue.record("\(bad) was accepted"); continue }
      #expect(error.description.contains("lanes/manifest.yaml:5:") && error.description.contains("'outputs'"), "\(error)")
    }
  }
}
