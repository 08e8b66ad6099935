import Foundation
import Testing

#if os(Linux)
/// Issue 54, item 7: architecture.md's count of the threads a run of shell
/// lanes holds is measured, not remembered (it said three, with the signal
/// thread there were four): a lane counts its parent's, duet's, in `/proc`,
/// ten times over half a second, and keeps the most: the observer's thread is
/// made at its first hand-off, which a lane counting at once may precede.
@Suite("The threads of a run, as the docs count them")
struct ThreadCountCLITests {
  @Test func theDocsCountIsDuets() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        # A sleep that is the point: the threads are counted over half a second of the run.
        - {name: count, sh: "for i in 1 2 3 4 5 6 7 8 9 10; do ls /proc/$PPID/task | wc -l; sleep 0.05; done | sort -n | tail -1 > threads.txt"}
      """)
    let run = try runBinary(["verify"], in: tree.url)
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    let threads = Int(try tree.read("threads.txt").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight"]
    let said = threads < words.count ? words[threads].capitalized : "\(threads)"
    let architecture = try String(contentsOf: DocTranscripts.repository.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    #expect(architecture.contains("\(said) threads exist during a run of shell lanes"),
            "duet held \(threads) threads while a lane ran; docs/architecture.md says otherwise")
  }
}
#endif
