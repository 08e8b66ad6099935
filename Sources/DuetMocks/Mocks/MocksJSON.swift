import DuetOutput
import DuetSupport

/// `duet mocks --check --json`: each mock file, up to date or with what drifted.
package struct MockCheckJSON: Codable, Sendable, Equatable {
  package struct File: Codable, Sendable, Equatable {
    package var output: String
    package var inputs: Int
    package var upToDate: Bool
    package var findings: [Finding]
  }

  /// One drift; `path` is null when it is about the mock file as a whole.
  package struct Finding: Codable, Sendable, Equatable {
    package var kind: String
    @Nullable package var path: String?
    package var message: String
  }

  package var command = "mocks --check"
  package var upToDate: Bool
  package var exitCode: Int
  package var files: [File]
  package var errors: [MockErrorJSON]

  package init(_ report: MockCheckReport) {
    upToDate = report.exitCode == 0
    exitCode = Int(report.exitCode)
    files = report.files.map { file in
      File(output: file.output, inputs: file.inputCount, upToDate: file.isUpToDate, findings: file.findings.map { finding in
        Finding(kind: finding.kind.rawValue, path: finding.path, message: finding.message)
      })
    }
    errors = report.errors.map(MockErrorJSON.init)
  }
}

/// `duet mocks --json`: what imprinting wrote, refused and could not read.
package struct MockImprintJSON: Codable, Sendable, Equatable {
  package struct File: Codable, Sendable, Equatable {
    package var output: String
    package var inputs: Int
    package var changed: Bool
    package var generated: Bool
  }

  package struct Refusal: Codable, Sendable, Equatable {
    package var output: String
    package var message: String
  }

  package var command = "mocks"
  package var exitCode: Int
  package var files: [File]
  package var refused: [Refusal]
  package var errors: [MockErrorJSON]

  package init(_ report: MockImprintReport) {
    exitCode = Int(report.exitCode)
    files = report.files.map { File(output: $0.output, inputs: $0.inputCount, changed: $0.changed, generated: $0.generated) }
    refused = report.refused.map { Refusal(output: $0.output, message: $0.message) }
    errors = report.errors.map(MockErrorJSON.init)
  }
}

/// A mock entry that could not be read; `location` is `file:line:column` or null.
package struct MockErrorJSON: Codable, Sendable, Equatable {
  package var output: String
  package var message: String
  @Nullable package var location: String?

  init(_ error: MockError) {
    output = error.output
    message = error.message
    location = error.location.map { "\($0)" }
  }
}
