import Foundation
import Testing

/// Issue 42, item 3: one environment. Only the binary's own invocation
/// (`Invocation.process`) reads the process's environment; every other part
/// of duet is handed the request's, so an in-process call, a hook and a test
/// each see the environment they were given, never this process's.
@Suite("The process environment is read in one place")
struct EnvironmentReadTests {
  static let allowed: Set = ["DuetApp/Call/Invocation.swift"]

  /// Every Swift file under `Sources/` that reads `ProcessInfo.processInfo.environment`, or `getenv`.
  static func readers() throws -> [String] {
    let sources = LayerTests.sources
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    return try files.filter { $0.hasSuffix(".swift") }.filter { file in
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      return text.contains("processInfo.environment") || text.contains("getenv(")
    }.sorted()
  }

  @Test func onlyTheInvocationReadsIt() throws {
    let readers = try Self.readers()
    #expect(readers.filter { !Self.allowed.contains($0) } == [], "read the request's environment instead")
    #expect(readers == Array(Self.allowed), "the invocation must still read it: \(readers)")
  }

  /// Issue 54, item 11: each variable has one name, `EnvironmentVariable`'s;
  /// nowhere else in `Sources/` is a variable's name written as a string of
  /// its own (`"DUET_HISTORY"`), so a rename or a new variable cannot drift
  /// from the man page, which is made from the same cases.
  @Test func everyVariableIsNamedOnce() throws {
    let sources = LayerTests.sources
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String } ?? []
    let names = ["DUET_HISTORY", "DUET_SKIP", "DUET_REMOTE_CACHE", "DUET_REMOTE_CACHE_UPLOAD", "DUET_REMOTE_CACHE_TOKEN",
                 "DUET_REMOTE_CACHE_KEY", "DUET_REMOTE_CACHE_JOBS", "NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "COLUMNS",
                 "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "DUET_LANE", "DUET_ROOT", "DUET_ATTEMPT", "DUET_CHANGED_FILES",
                 "DUET_QUARANTINED_TESTS", "DUET_FAILED_TESTS", "DUET_MOCK_OUTPUT"]
    var found: [String] = []
    for file in files.sorted() where file.hasSuffix(".swift") && !file.hasSuffix("/EnvironmentVariable.swift") {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for name in names where text.contains("\"\(name)\"") { found.append("\(file): \"\(name)\"") }
    }
    #expect(found == [], "name the variable by its EnvironmentVariable case")
  }
}
