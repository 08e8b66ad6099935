import Foundation
import Testing

/// Issue 39, item 11: the machine is not the lane. A lane duet could not start
/// for want of file descriptors is an `error`: not a failure, not retried, no
/// flaky evidence; the run ends `ERROR`, exit 3, and JUnit says `<error>`.
@Suite("A lane duet could not start is an error, not a failure")
struct MachineErrorCLITests {
  @Test func outOfDescriptorsIsAnError() throws {
    var lanes = ["version: 1", "lanes:"]
    // A sleep that is the point: the lanes run at once, holding their descriptors.
    for index in 0..<40 { lanes.append("  - {name: l\(index), sh: \"sleep 0.3\", retries: 2}") }
    lanes.append("  - {name: after, sh: \"true\", needs: [l39]}")
    let tree = try FixtureTree(manifest: lanes.joined(separator: "\n") + "\n")
    let run = try shell("ulimit -n 24 && exec '\(duetBinaryForAnyUser.path)' verify -j 40 --junit junit.xml", in: tree.url,
                        environment: ["NO_COLOR": "1"])
    #expect(run.status == 3, "\(run.output.suffix(1500))")
    #expect(run.output.contains("Too many open files"), "\(run.output.suffix(800))")
    #expect(run.output.contains("duet verify: ERROR ("), "\(run.output.suffix(800))")
    #expect(!run.output.contains("↻"), "an error is not retried: \(run.output.suffix(800))")
    #expect(!run.output.contains("duet verify: FAIL"))
    let junit = try tree.read("junit.xml")
    #expect(junit.contains("<error message=\"") && junit.contains("Too many open files\" type=\"error\">"), "\(junit.prefix(1500))")
    #expect(!junit.contains("<failure"), "\(junit.prefix(1500))")
    let flaky = try tree.duet("flaky", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(flaky.stdout.utf8)) as? [String: Any]
    #expect((object?["lanes"] as? [Any])?.isEmpty == true, "\(flaky.stdout)")
    // The next run, with descriptors to spare, runs them and passes.
    let again = try tree.duet("verify", "-j", "40")
    #expect(again.status == 0, "\(again.stdout.suffix(500))")
  }

  /// Issue 52, items 1 and 4: under `ulimit -n` from 5 to 14, `duet verify
  /// --junit` and `duet doctor` never trap (libdispatch's SIGILL, exit 132,
  /// when its event loop could not make an eventfd): verify ends `error`
  /// (exit 3) or passes, never FAIL, the JUnit write's own EMFILE included;
  /// doctor answers.
  @Test func noTrapWhenDescriptorsRunOut() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: a, sh: \"echo done\"}\n")
    for limit in 5...14 {
      let run = try shell("ulimit -n \(limit) && exec timeout 60 '\(duetBinaryForAnyUser.path)' verify --junit junit.xml", in: tree.url,
                          environment: ["NO_COLOR": "1", "DUET_HISTORY": "off"])
      #expect(run.status == 0 || run.status == 3, "ulimit -n \(limit): exit \(run.status): \(run.output.suffix(600))")
      #expect(!run.output.contains("duet verify: FAIL"), "ulimit -n \(limit): \(run.output.suffix(600))")
      let doctor = try shell("ulimit -n \(limit) && exec timeout 60 '\(duetBinaryForAnyUser.path)' doctor", in: tree.url, environment: ["NO_COLOR": "1"])
      #expect([0, 1, 3].contains(doctor.status), "doctor, ulimit -n \(limit): exit \(doctor.status): \(doctor.output.suffix(600))")
    }
  }

  #if os(Linux)
  /// Issue 52, item 3: a lane whose shell could not fork (the user's process
  /// limit, here set by the lane itself so that it bites the lane and not duet;
  /// as root the run is made as `nobody`, for whom the limit binds) is `error`,
  /// not `fail`: dash says `Cannot fork` and exits 2. bash's words
  /// (`fork: retry: Resource temporarily unavailable`) are the same, whatever
  /// the exit status. No flaky evidence, exit 3; with the limit gone it passes.
  @Test func aShellThatCannotForkIsAnError() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: starved
          sh: "if [ -e limit ]; then ulimit -u 1 2>/dev/null || ulimit -p 1; fi; true | true; echo done"
        - name: words
          sh: "if [ -e limit ]; then echo 'bash: fork: retry: Resource temporarily unavailable' >&2; exit 1; fi"
      """)
    try tree.write("limit", "")
    chmod(tree.url.path, 0o777)
    let asUser = getuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup --clear-groups " : ""
    let run = try shell("\(asUser)'\(duetBinaryForAnyUser.path)' verify --junit junit.xml", in: tree.url,
                        environment: ["NO_COLOR": "1", "DUET_HISTORY": tree.url.appendingPathComponent("h.sqlite").path])
    #expect(run.status == 3, "\(run.output.suffix(1500))")
    #expect(run.output.contains("starved  error"), "\(run.output.suffix(800))")
    #expect(run.output.contains("Cannot fork"), "\(run.output.suffix(800))")
    #expect(run.output.contains("words    error"), "\(run.output.suffix(800))")
    #expect(run.output.contains("duet verify: ERROR ("), "\(run.output.suffix(800))")
    #expect(!run.output.contains("duet verify: FAIL"))
    try FileManager.default.removeItem(at: tree.url.appendingPathComponent("limit"))
    let again = try shell("\(asUser)'\(duetBinaryForAnyUser.path)' verify", in: tree.url,
                          environment: ["NO_COLOR": "1", "DUET_HISTORY": tree.url.appendingPathComponent("h.sqlite").path])
    #expect(again.status == 0, "\(again.output.suffix(800))")
    let flaky = try tree.duet("flaky", "--json", environment: ["DUET_HISTORY": tree.url.appendingPathComponent("h.sqlite").path])
    let object = try JSONSerialization.jsonObject(with: Data(flaky.stdout.utf8)) as? [String: Any]
    #expect((object?["lanes"] as? [Any])?.isEmpty == true, "an error is no flaky evidence: \(flaky.stdout)")
  }

  /// A temporary worktree's tree is the same folder below its top as the
  /// tree is below the repository's (`git rev-parse --show-prefix`). When
  /// that question failed, the worktree's top was taken instead, and the
  /// lane was looked for in the wrong folder; now the failure is named.
  @Test func aFailedPrefixQueryIsNamedNotGuessed() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes: []\n")
    try tree.write("app/lanes/manifest.yaml", "version: 1\nlanes:\n  - {name: coin, sh: \"true\"}\n")
    let setUp = try shell("git init -q && git add -A && git -c user.email=d@e -c user.name=d commit -qm fixture", in: tree.url)
    try #require(setUp.status == 0, "\(setUp.output)")
    let path = try tree.gitOnPath(first: "case \"$*\" in *--show-prefix*) exit 128;; esac")
    let run = try shell("'\(duetBinaryForAnyUser.path)' deflake coin --runs 2 --jobs 2 --root app", in: tree.url,
                        environment: ["NO_COLOR": "1", "DUET_HISTORY": "off", "PATH": path])
    #expect(run.status == 2, "\(run.output.suffix(800))")
    #expect(run.output.contains("git rev-parse --show-prefix failed"), "\(run.output.suffix(800))")
  }

  /// `deflake --jobs 2` makes its temporary worktrees with git. Under a
  /// process limit from 2 to 8 more than the user runs, a git that could not
  /// start is the machine's error (exit 3, its reason named), never "not in a
  /// git repository" or a usage error (exit 2), which it was. A git that
  /// started but could not fork its own helpers fails as git (its stderr is
  /// not kept, so duet cannot tell why): exit 2 naming the git command. As
  /// root the run is made as a user of its own, who owns the repository (git
  /// refuses another's).
  @Test func deflakeWithNoRoomForGitIsTheMachinesError() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: coin, sh: \"true\"}\n")
    let setUp = try shell("git init -q && git add -A && git -c user.email=d@e -c user.name=d commit -qm fixture", in: tree.url)
    try #require(setUp.status == 0, "\(setUp.output)")
    // As root, a user id of its own that runs nothing else, so other tests
    // running as `nobody` at the same time do not use up its limit.
    let ownUser = "61054"
    let asUser = getuid() == 0 ? "setpriv --reuid=\(ownUser) --regid=\(ownUser) --clear-groups " : ""
    if getuid() == 0 { #expect(try shell("chown -R \(ownUser):\(ownUser) .", in: tree.url).status == 0) }
    let base = getuid() == 0 ? 0
      : Int(try shell("ps -L -u \(NSUserName()) -o lwp= | wc -l", in: tree.url).output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    var short = 0
    for extra in 2...8 {  // at 1 more, `timeout` itself cannot fork
      let run = try shell("\(asUser)prlimit --nproc=\(base + extra) timeout 60 '\(duetBinaryForAnyUser.path)' deflake coin --runs 2 --jobs 2",
                          in: tree.url, environment: ["NO_COLOR": "1", "DUET_HISTORY": "off", "HOME": tree.url.path])
      let gitFailed = run.status == 2 && run.output.contains("(git ")
      #expect(run.status == 0 || run.status == 3 || gitFailed, "nproc +\(extra): exit \(run.status): \(run.output.suffix(600))")
      #expect(!run.output.contains("not in a git repository"), "nproc +\(extra): \(run.output.suffix(600))")
      if run.status == 3 {
        short += 1
        #expect(run.output.contains("Resource temporarily unavailable"), "nproc +\(extra): \(run.output.suffix(600))")
      }
    }
    #expect(short > 0, "no limit from 2 to 8 more was short: the test did not reach git's start")
  }
  #endif
}
