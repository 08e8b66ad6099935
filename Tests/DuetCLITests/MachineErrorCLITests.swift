import Foundation
import Testing

/// Issue 39, item 11: the machine is not the lane. A lane duet could not start
/// for want of file descriptors is an `error`: not a failure, not retried, no
/// flaky evidence; the run ends `ERROR`, exit 3, and JUnit says `<error>`.
@Suite("A lane duet could not start is an error, not a failure")
struct MachineErrorCLITests {
  @Test func outOfDescriptorsIsAnError() throws {
    var lanes = ["version: 1", "lanes:"]
    for index in 0..<40 { lanes.append("  - {name: l\(index), sh: \"sleep 0.3\", retries: 2}") }
    lanes.append("  - {name: after, sh: \"true\", needs: [l39]}")
    let tree = try FixtureTree(manifest: lanes.joined(separator: "\n") + "\n")
    let run = try shell("ulimit -n 24 && exec '\(duetBinary.path)' verify -j 40 --junit junit.xml", in: tree.url,
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
}
