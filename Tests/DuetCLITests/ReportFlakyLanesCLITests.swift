import Foundation
import Testing

/// Issue 50, item 9: the report names flaky lanes in words by `duet flaky`'s
/// rule, a lane with both outcomes on one fingerprint across runs included,
/// not only the lanes that passed on a retry.
@Suite("The report names flaky lanes by the flaky rule, end to end")
struct ReportFlakyLanesCLITests {
  @Test func aLaneThatFlipsOnOneFingerprintIsNamedFlaky() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: coin
          inputs: [src/**]
          sh: 'n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; test "$n" -ge 1'
        - name: steady
          sh: echo ok
      """)
    try tree.write("src/a.txt", "one")
    #expect(try tree.duet("verify").status == 1)
    #expect(try tree.duet("verify").status == 0)
    let text = try tree.duet("report", "--html", "report.html")
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("\n1 lane flaky in the window: coin (both outcomes on one fingerprint, 1 failure(s) in 2 run(s))\n"), "\(text.stdout)")
    let page = try tree.read("report.html")
    #expect(page.contains("<p id=\"flaky-lanes\">1 lane flaky in the window: <strong>coin</strong> (both outcomes on one fingerprint, 1 failure(s) in 2 run(s)).</p>"), "\(page)")

    let calm = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: unit, sh: echo ok}\n")
    #expect(try calm.duet("verify").status == 0)
    #expect(try calm.duet("report", "--html", "report.html").stdout.contains(FlakyLanesNone.text))
    #expect(try calm.read("report.html").contains(FlakyLanesNone.text))
  }
}

/// What a window with no flaky lane says, as the report prints it.
enum FlakyLanesNone {
  static let text = "No lane was flaky in the window (none passed and failed on one input fingerprint, or passed on a retry)."
}
