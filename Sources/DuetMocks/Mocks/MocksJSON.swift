import DuetOutput
import DuetSupport

/// `duet mocks --check --json`: each mock file, up to date or with what drifted.
package struct MockCheckJSON: Codable, Sendable, Equatable {
  struct File: Codable, Sendable, Equatable {
    var output: String
    var inputs: Int
    var upToDate: Bool
    var findings: [Finding]
  }

  /// One drift; `path` is null when it is about the mock file as a whole.
  struct Finding: Codable, Sendable, Equatable {
    var kind: String
    @Nullable var path: String?
    var message: String
  }

  var command = "mocks --check"
  var upToDate: Bool
  var exitCode: Int
  var files: [File]
  var errors: [MockErrorJSON]

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
  struct File: Codable, Sendable, Equatable {
    var output: String
    var inputs: Int
    var changed: Bool
    var generated: Bool
  }

  package struct Refusal: Codable, Sendable, Equatable {
    var output: String
    var message: String
  }

  var command = "mocks"
  var exitCode: Int
  var files: [File]
  var refused: [Refusal]
  var errors: [MockErrorJSON]

  package init(_ report: MockImprintReport) {
    exitCode = Int(report.exitCode)
    files = report.files.map { File(output: $0.output, inputs: $0.inputCount, changed: $0.changed, generated: $0.generated) }
    refused = report.refused.map { Refusal(output: $0.output, message: $0.message) }
    errors = report.errors.map(MockErrorJSON.init)
  }
}

/// A mock entry that could not be read; `location` is `file:line:column` or null.
struct MockErrorJSON: Codable, Sendable, Equatable {
  var output: String
  var message: String
  @Nullable var location: String?

  init(_ error: MockError) {
    output = error.output
    message = error.message
    location = error.location.map { "\($0)" }
  }
}
