import Foundation
import Testing
@testable import DuetRun
@testable import DuetHistory
@testable import DuetApp
@testable import DuetModel
@testable import DuetSupport

/// Issue 56, item 3: why this checkout misses a pass another checkout or
/// machine recorded, named part by part, and which pass is the nearest.
@Suite("Why a machine missed the cache")
struct CacheMissTests {
  func parts(file: String = "a", flavor: String = "release", tool: String = "sha256:" + String(repeating: "1", count: 64),
             environment: [String: String] = [:]) -> FingerprintParts {
    var parts = FingerprintParts(command: Digest.sha256("make"), dir: ".", env: Digest.sha256(""), duet: nil)
    parts.platform = "linux-x86_64"
    parts.files = [.init(path: "src/a.txt", sha256: Digest.sha256(file)), .init(path: "src/b.txt", sha256: Digest.sha256("b"))]
    parts.envInputs["FLAVOR"] = EnvInputDigest.part(name: "FLAVOR", value: flavor, environment: environment)
    parts.programs["kotlinc"] = tool
    return parts
  }

  func run(_ id: String, _ parts: FingerprintParts, outcome: LaneOutcome = .pass, origin: String = "ci linux-1", at time: Double = 100) -> OtherCheckoutRun {
    OtherCheckoutRun(runID: id, logID: "20261206-0915\(id)", origin: "\(origin)", outcome: outcome, started: time, commit: "c1",
                     fingerprint: parts.fingerprint, parts: parts)
  }

  /// Each differing part in words: a file by path, an env-input by name (never
  /// its value), a program by the digest of its bytes here and there.
  @Test func everyDifferenceIsNamed() {
    let here = parts(file: "changed", flavor: "debug", tool: "sha256:" + String(repeating: "2", count: 64))
    #expect(here.differences(from: parts()) == [
      "src/a.txt differs", "FLAVOR differs", "requires kotlinc: 2222222222222222 here, 1111111111111111 there",
    ])
    #expect(parts().differences(from: parts()).isEmpty)
    var fewer = parts()
    fewer.files.removeLast()
    #expect(fewer.differences(from: parts()) == ["src/b.txt only there"])
    // One side keyed by the team's key: the hashes cannot be compared, and it says so.
    let keyed = parts(environment: ["DUET_REMOTE_CACHE_KEY": "k"])
    #expect(keyed.differences(from: parts()) == ["FLAVOR is hashed under another key (DUET_REMOTE_CACHE_KEY is set on one side only), so its value cannot be compared"])
  }

  /// The nearest pass: fewest differences, then newest; failures are no pass
  /// to miss; a pass with these very parts is no miss.
  @Test func theNearestPassIsChosen() throws {
    let here = parts(file: "changed")
    let far = run("far", parts(file: "x", flavor: "debug"), at: 300)
    let near = run("near", parts(), at: 100)
    let failed = run("failed", here, outcome: .fail, at: 400)
    let miss = try #require(CacheMiss.nearest(here, among: [far, near, failed]))
    #expect(miss.against.runID == "near" && miss.differences == ["src/a.txt differs"])
    #expect(miss.words(lane: "k") == "misses the CI pass (run 20261206-0915near, ci linux-1): src/a.txt differs")
    #expect(CacheMiss.nearest(here, among: [run("same", here)]) == nil)
    #expect(CacheMiss.nearest(here, among: [failed]) == nil)
    let many = CacheMiss(against: near, differences: ["a", "b", "c", "d", "e"])
    #expect(many.words(lane: "k").hasSuffix(": a; b; c; 2 more (duet explain k)"))
  }

  /// `duet explain` in words (issue 54, item 1: the command prints these and
  /// reads none of the run's fields): the run compared with and each part that
  /// differs; a failed run is named by its log id; nothing differs, said so.
  @Test func theExplanationInWords() {
    let near = run("near", parts(), at: 100)
    let miss = CacheMiss(against: near, differences: ["src/a.txt differs", "FLAVOR differs"])
    #expect(miss.explained(lane: "k").map(\.text) == [
      "duet explain k: misses \(miss.named) on commit c1 in 2 part(s):", "  src/a.txt differs", "  FLAVOR differs",
    ])
    let failed = CacheMiss(against: run("bad", parts(), outcome: .fail), differences: ["src/a.txt differs"])
    #expect(failed.explained(lane: "k").first?.text == "duet explain k: differs from run 20261206-0915bad (ci linux-1, fail) on commit c1 in 1 part(s):")
    #expect(CacheMiss(against: near, differences: []).explained(lane: "k").map(\.text)
      == ["duet explain k: the same fingerprint as run 20261206-0915near (ci linux-1, pass on commit c1): nothing differs"])
  }
}
