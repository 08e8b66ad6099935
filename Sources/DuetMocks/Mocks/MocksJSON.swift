import DuetOutput
import DuetSupport

/// `duet mocks --check --json`: each mock file, up to date or with what drifted.
public struct MockCheckJSON: Codable, Sendable, Equatable {
  public struct File: Codable, Sendable, Equatable {
    public var output: String
    public var inputs: Int
    public var upToDate: Bool
    public var findings: [Finding]
  }

  /// One drift; `path` is null when it is about the mock file as a whole.
  public struct Finding: Codable, Sendable, Equatable {
    public var kind: String
    @Nullable public var path: String?
    public var message: String
  }

  public var command = "mocks --check"
  public var upToDate: Bool
  public var exitCode: Int
  public var files: [File]
  public var errors: [MockErrorJSON]

  public init(_ report: MockCheckReport) {
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
public struct MockImprintJSON: Codable, Sendable, Equatable {
  public struct File: Codable, Sendable, Equatable {
    public var output: String
    public var inputs: Int
    public var changed: Bool
    public var generated: Bool
  }

  public struct Refusal: Codable, Sendable, Equatable {
    public var output: String
    public var message: String
  }

  public var command = "mocks"
  public var exitCode: Int
  public var files: [File]
  public var refused: [Refusal]
  public var errors: [MockErrorJSON]

  public init(_ report: MockImprintReport) {
    exitCode = Int(report.exitCode)
    files = report.files.map { File(output: $0.output, inputs: $0.inputCount, changed: $0.changed, generated: $0.generated) }
    refused = report.refused.map { Refusal(output: $0.output, message: $0.message) }
    errors = report.errors.map(MockErrorJSON.init)
  }
}

/// A mock entry that could not be read; `location` is `file:line:column` or null.
public struct MockErrorJSON: Codable, Sendable, Equatable {
  public var output: String
  public var message: String
  @Nullable public var location: String?

  init(_ error: MockError) {
    output = error.output
    message = error.message
    location = error.location.map { "\($0)" }
  }
}
