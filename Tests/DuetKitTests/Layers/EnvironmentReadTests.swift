import Foundation
import Testing

/// Issue 42, item 3: one environment. Only the binary's own invocation
/// (`Invocation.process`) reads the process's environment; every other part
/// of duet is handed the request's, so an in-process call, a hook and a test
/// each see the environment they were given, never this process's.
@Suite("The process environment is read in one place")
struct EnvironmentReadTests {
  static let allowed: Set = ["duet/Invocation.swift"]

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
}
