import Foundation
import Testing
@testable import DuetMocks
@testable import DuetOutput
@testable import DuetSupport

/// `duet mocks [--check] --json` as values: the bytes the dictionaries printed, and a round trip.
struct MocksJSONTests {
  static let errors = [
    MockError(output: "a/Mocks.swift", message: "cannot read", location: SourceLocation(file: "lanes/manifest.yaml", line: 4, column: 5)),
    MockError(output: "b/Mocks.swift", message: "no sources", location: nil),
  ]

  static func legacyErrors(_ errors: [MockError]) -> [[String: Any]] {
    errors.map { ["output": $0.output, "message": $0.message, "location": $0.location.map { "\($0)" } ?? NSNull()] }
  }

  @Test func checkBytesAsBefore() throws {
    var report = MockCheckReport()
    report.files = [
      MockFileStatus(output: "a/Mocks.swift", inputCount: 2, findings: []),
      MockFileStatus(output: "b/Mocks.swift", inputCount: 1, findings: [
        MockFinding(.stale, path: "src/B.swift", "changed since imprinted"), MockFinding(.body, "edited by hand"),
      ]),
    ]
    report.errors = Self.errors
    let legacy: [String: Any] = [
      "command": "mocks --check", "upToDate": report.exitCode == 0, "exitCode": Int(report.exitCode),
      "files": report.files.map { file -> [String: Any] in
        ["output": file.output, "inputs": file.inputCount, "upToDate": file.isUpToDate, "findings": file.findings.map { finding -> [String: Any] in
          ["kind": finding.kind.rawValue, "path": finding.path ?? NSNull(), "message": finding.message]
        }]
      },
      "errors": Self.legacyErrors(report.errors),
    ]
    #expect(ReportJSON.text(MockCheckJSON(report)) == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(MockCheckJSON(report)))
  }

  @Test func imprintBytesAsBefore() throws {
    var report = MockImprintReport()
    report.files = [.init(output: "a/Mocks.swift", changed: true, generated: false, inputCount: 3)]
    report.refused = [MockImprint.Refusal(output: "b/Mocks.swift", message: "the body was edited by hand")]
    report.errors = Self.errors
    let legacy: [String: Any] = [
      "command": "mocks", "exitCode": Int(report.exitCode),
      "files": report.files.map { ["output": $0.output, "inputs": $0.inputCount, "changed": $0.changed, "generated": $0.generated] },
      "refused": report.refused.map { ["output": $0.output, "message": $0.message] },
      "errors": Self.legacyErrors(report.errors),
    ]
    #expect(ReportJSON.text(MockImprintJSON(report)) == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(MockImprintJSON(report)))
  }
}
