import Foundation
import Testing

@Suite("The quarantine (lanes/quarantine.yaml), end to end")
struct QuarantineCLITests {
  static let manifest = """
    version: 1
    lanes:
      - name: unit
        reports: [out.xml]
        sh: |
          printf '<testsuite><testcase classname="app.CartTest" name="addsItem"><failure message="boom"/></testcase><testcase classname="app.CartTest" name="flips"><failure message="x"/></testcase><testcase classname="app.CartTest" name="ok"/></testsuite>' > out.xml
          exit 1
      - name: ui
        sh: exit 1
      - name: after
        needs: [unit]
        sh: echo ok
    """

  /// Issue 40: the built `duet verify` passes a lane whose failed cases are all
  /// quarantined (a glob) and a lane quarantined whole, each with its note; the
  /// failures are still recorded; an entry past its day warns once, by name;
  /// without the file, the same tree fails.
  @Test func quarantinedFailuresPassWithANoteAndStayRecorded() throws {
    let tree = try FixtureTree(manifest: QuarantineCLITests.manifest)
    #expect(try tree.duet("verify").status == 1)
    try tree.write("lanes/quarantine.yaml", """
      quarantine:
        - test: app.CartTest.*
          lane: unit
          reason: flips on CI
          until: 2099-12-31
        - lane: ui
          reason: emulator
          until: 2099-01-01
        - test: app.Old.test
          lane: unit
          reason: old
          until: 2020-01-01
      """)
    let run = try tree.duet("verify")
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("\nunit   pass     "), "\(run.stdout)")
    #expect(run.stdout.contains("2 quarantined failures: app.CartTest.addsItem, app.CartTest.flips\n"), "\(run.stdout)")
    #expect(run.stdout.contains("quarantined until 2099-01-01\n"), "\(run.stdout)")
    #expect(run.stdout.contains("\nafter  pass"), "\(run.stdout)")
    let warnings = run.stderr.components(separatedBy: "\n").filter { $0.contains("expired") }
    #expect(warnings == ["duet verify: warning: quarantine of app.Old.test in lane 'unit' expired on 2020-01-01; its failures fail the run again (lanes/quarantine.yaml)"])
    let stats = try tree.duet("stats", "--tests")
    #expect(stats.stdout.contains("0%         0.00s  0.00s  0.00s  app.CartTest.flips"), "\(stats.stdout)")
  }

  /// An expired test entry counts for nothing: the lane fails again; a file
  /// that cannot be read quarantines nothing and names each problem's place.
  @Test func expiredAndBrokenQuarantinesBlock() throws {
    let tree = try FixtureTree(manifest: QuarantineCLITests.manifest.replacingOccurrences(of: "sh: exit 1", with: "sh: exit 0"))
    try tree.write("lanes/quarantine.yaml", """
      quarantine:
        - test: app.CartTest.*
          lane: unit
          reason: flips on CI
          until: 2020-01-01
      """)
    let expired = try tree.duet("verify")
    #expect(expired.status == 1)
    #expect(expired.stderr.contains("quarantine of app.CartTest.* in lane 'unit' expired on 2020-01-01"), "\(expired.stderr)")
    try tree.write("lanes/quarantine.yaml", "quarantine:\n  - lane: nope\n    reason: x\n    until: 2026-02-30\n")
    let broken = try tree.duet("verify")
    #expect(broken.status == 1)
    #expect(broken.stderr.contains("lanes/quarantine.yaml:2:11: error: quarantine entry 1: unknown lane 'nope'"), "\(broken.stderr)")
    #expect(broken.stderr.contains("lanes/quarantine.yaml:4:12: error: quarantine entry 1: 'until' must be a real date"), "\(broken.stderr)")
  }
}
