import Foundation
import Testing

/// Issue 54, item 4: one noun per idea. A lane's attempt, a lane's verdict and
/// a run's verdict are each one type from the run loop through the history to
/// the JSON (`LaneAttempt`, `LaneVerdict`, `RunVerdict`), each with one word
/// (`AttemptOutcome`, `LaneOutcome`, `RunOutcome`). Six types once named "the
/// result" (`VerifyOutcome` beside `RunResult`, `AttemptResult`, `LaneRecord`,
/// `RunReport`, `LaneRun`), so a reader could not tell two stages of one value
/// from two values. This guard fails on a type whose name says it is a result
/// (outcome, result, verdict; or a lane's, attempt's, run's or step's record,
/// report, summary or status) that the list below does not hold: a new one is
/// either one of the three nouns under another name, and must be merged into
/// it, or another idea, and goes into the list with the reason it is not.
@Suite("A result has one noun: a lane's attempt, a lane's verdict, a run's verdict")
struct ResultNounTests {
  /// Every result-like type name allowed in Sources, with why. Nested types are
  /// named `File.Name` (the file they are declared in, which names their owner).
  static let allowed: [String: String] = [
    // The three nouns and their words.
    "LaneVerdict": "a lane's verdict: its part in a run over all its attempts",
    "RunVerdict": "a run's verdict: every lane's verdict and what else decides the run",
    "AttemptOutcome": "the word of a lane's attempt, as the history and --json keep it",
    "LaneOutcome": "the word of a lane's verdict, as the history and --json keep it",
    "RunOutcome": "the word of a run's verdict, as the history and --json keep it",
    "LastVerdict": "a lane's verdict as the history read it back for the cache: its word, decoded once, and the fingerprint it was judged at",
    // Other ideas, each named for what it is.
    "QuarantineExcuseCheck.Verdict": "the quarantine's word on one failed attempt (excused, refused): an input to the attempt's outcome",
    "VerdictSeal": "a CI job's digest over the verdicts it recorded, not a verdict",
    "UpstreamVerdicts": "the namespace that reads the verdicts earlier CI jobs recorded; it declares no verdict of its own",
    "StepSummary": "GitHub's job step summary (Markdown) of a run's verdict, not a lane's step",
    "TestOutcome": "the word of one test case from a lane's reports, not of a lane",
    "TestCaseResult": "one test case from a lane's reports (JUnit), not a lane",
    "ContrastPairResult": "a colour pair's contrast in theme-test, nothing of a run",
    "WorkflowOutcome": "what `duet init --ci` did to a CI workflow file",
    "InvocationResult": "what one in-process invocation of the executable printed and exited with",
    "RemoteResult": "how one request to the remote cache ended",
    "WriteOutcome": "whether the token writer wrote a file or left it",
    "DesignTokens.Outcome": "what `duet design-tokens` did",
    "ThemeTest.Outcome": "what `duet theme-test` found",
    "MockGenerator.Outcome": "what a mock generator's command did",
    "ChangedFiles.Result": "the files a change names, and how they were found",
    "InputFingerprint.Result": "each lane's fingerprint and its parts",
    "OutputRestore.Result": "whether a lane's outputs came back from the store",
    "FingerprintParser.Result": "a mock file's fingerprint block, parsed or why not",
    "FingerprintBlockReader.Result": "the parser's answer, as the reader hands it on",
    "JoinedThread.Result": "the box a joined thread's value comes back in",
  ]

  /// The result-like type names declared in `text`, nested ones as `stem.Name`.
  static func declared(in text: String, stem: String) -> [String] {
    // A name that says it is a result, and a type's declaration at the start of a line.
    let resultLike = #/\w*(Outcome|Result|Verdict)\w*|(Lane|Attempt|Run|Verify|Step)\w*(Record|Report|Summary|Status|Run|End|Result)/#
    let declaration = #/(\s*)(?:(?:private|fileprivate|package|internal|public|final|indirect)\s+)*(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)/#
    var names: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
      guard let match = line.prefixMatch(of: declaration) else { continue }
      let name = String(match.output.2)
      guard name.wholeMatch(of: resultLike) != nil else { continue }
      let nested = !match.output.1.isEmpty
      names.append(nested ? "\(stem).\(name)" : name)
    }
    return names
  }

  /// Every result-like type declared in Sources, with the file that declares it.
  static func declaredNames() throws -> [String: String] {
    let sources = LayerTests.sources
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    var found: [String: String] = [:]
    for file in files where file.hasSuffix(".swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      let stem = (file as NSString).lastPathComponent.replacingOccurrences(of: ".swift", with: "")
      for name in declared(in: text, stem: stem) { found[name] = file }
    }
    return found
  }

  @Test func everyResultLikeNameIsOneOfTheNounsOrSaysWhyNot() throws {
    let found = try Self.declaredNames()
    #expect(found.count > 20, "the scan found \(found.keys.sorted())")
    let unlisted = found.filter { Self.allowed[$0.key] == nil }.map { "\($0.key) (\($0.value))" }.sorted()
    #expect(unlisted.isEmpty, """
      a type named as a result that is not one of the three nouns: merge it into LaneAttempt, LaneVerdict or \
      RunVerdict if it holds one of them, else name it for what it is or add it to ResultNounTests.allowed \
      with the reason it is another idea: \(unlisted)
      """)
    let gone = Self.allowed.keys.filter { found[$0] == nil }.sorted()
    #expect(gone.isEmpty, "no longer declared, so take them out of ResultNounTests.allowed: \(gone)")
  }

  /// The scan sees what it must: the names that were merged away would fail it, nested or not.
  @Test func theScanCatchesAnotherNounForTheSameIdea() throws {
    let text = """
      package struct RunResult: Sendable {
      struct VerifyOutcome {
      final class AttemptRecord {
        enum Verdict {
      // struct LaneResult in a comment is not a declaration
      typealias LaneReport = LaneVerdict
      struct LaneAttempt {
      """
    #expect(Self.declared(in: text, stem: "LaneLoop") == ["RunResult", "VerifyOutcome", "AttemptRecord", "LaneLoop.Verdict", "LaneReport"])
  }

  /// architecture.md's glossary names the three nouns, each with its word.
  @Test func theGlossaryNamesTheThreeNouns() throws {
    let doc = LayerTests.sources.deletingLastPathComponent().appendingPathComponent("docs/architecture.md")
    let text = try String(contentsOf: doc, encoding: .utf8)
    for (noun, word) in [("LaneAttempt", "AttemptOutcome"), ("LaneVerdict", "LaneOutcome"), ("RunVerdict", "RunOutcome")] {
      #expect(text.contains("| `\(noun)` | `\(word)` |"), "architecture.md's table of result nouns lacks \(noun) and its word \(word)")
    }
  }
}
