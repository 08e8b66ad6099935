import Foundation
@testable import DuetMocks
@testable import DuetModel

/// The environment these tests hand calls that take the invocation's: the
/// test process stands for the invocation (only `Invocation.process` reads the
/// process's own environment in duet; ArchitectureCountTests keeps it so).
let testEnvironment = ProcessInfo.processInfo.environment

extension MockImprint {
  /// With the tests' environment for the generators.
  static func run(_ manifest: Manifest, root: URL) -> MockImprintReport {
    run(manifest, root: root, options: Options())
  }
}

extension MockImprint.Options {
  init(acceptBody: Bool = false) { self.init(acceptBody: acceptBody, generator: MockGenerator.shell(environment: testEnvironment)) }
}
