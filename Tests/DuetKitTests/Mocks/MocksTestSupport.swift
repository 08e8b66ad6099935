import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// A tree under the system temporary folder for one test, removed when the value goes away.
final class MocksTempTree {
  let url: URL

  init() throws {
    let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("duet-mocks-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    // Resolved, so paths compare equal to what realpath gives.
    url = URL(fileURLWithPath: MockInputs.realPath(base.path) ?? base.path)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }

  func write(_ relative: String, _ text: String) throws {
    try write(relative, bytes: Array(text.utf8))
  }

  func write(_ relative: String, bytes: [UInt8]) throws {
    let target = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: target)
  }

  func bytes(_ relative: String) throws -> [UInt8] {
    Array(try Data(contentsOf: url.appendingPathComponent(relative)))
  }

  func text(_ relative: String) throws -> String { String(decoding: try bytes(relative), as: UTF8.self) }

  /// A manifest with the given `mocks:` entries (YAML text, already indented as list items).
  func manifest(_ mocks: String) throws -> Manifest {
    try write("lanes/manifest.yaml", "version: 1\nmocks:\n" + mocks)
    return try ManifestLoader.load(root: url, builtins: BuiltinSet.standard.vocabulary)
  }

  /// The usual shell: two Swift sources, a hidden file, a non-Swift file and a mock file with no block.
  func shell() throws -> Manifest {
    try write("Sources/Shell/HomeView.swift", "struct HomeView {}\n")
    try write("Sources/Shell/Nested/HomeState.swift", "struct HomeState {}\n")
    try write("Sources/Shell/.Hidden.swift", "hidden\n")
    try write("Sources/Shell/notes.txt", "not swift\n")
    try write("Tests/Mocks/ShellMocks.swift", "final class HomeViewMock {}\n")
    return try manifest("  - output: Tests/Mocks/ShellMocks.swift\n    sources: [Sources/Shell]\n")
  }
}

/// The shared fixtures folder, `Tests/Fixtures/mocks`, outside every test target.
enum MocksFixtures {
  static var folder: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/mocks")
  }
}

/// SHA-256 through the system's `sha256sum`, a second implementation to hold duet's to.
func mocksSystemSHA256(_ path: String) -> String? {
  let pipe = Pipe()
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["sha256sum", path]
  process.standardOutput = pipe
  guard (try? process.run()) != nil else { return nil }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return String(decoding: data, as: UTF8.self).split(separator: " ").first.map(String.init)
}
