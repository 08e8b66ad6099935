import Foundation

/// What one run of the built `duet` binary did.
struct MocksCLIResult {
  var code: Int32
  var stdout: String
  var stderr: String
}

/// Runs the built `duet` binary on trees made in temporary folders.
enum MocksCLI {
  /// `duet` beside the test executable (SwiftPM builds both into one folder), else `.build/debug/duet`.
  static var binary: URL {
    let candidates = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])].compactMap { $0 }
    for candidate in candidates {
      var folder = candidate.deletingLastPathComponent()
      // On macOS the runner is inside an .xctest bundle.
      while folder.path.contains(".xctest") { folder = folder.deletingLastPathComponent() }
      let duet = folder.appendingPathComponent("duet")
      if FileManager.default.isExecutableFile(atPath: duet.path) { return duet }
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(".build/debug/duet")
  }

  /// Runs `duet arguments` in `directory`; output goes through files, so neither pipe can fill up.
  static func run(_ arguments: [String], in directory: URL) throws -> MocksCLIResult {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("duet-mocks-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try process.run()
    process.waitUntilExit()
    return MocksCLIResult(
      code: process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }
}

/// A tree in a temporary folder for one CLI test, removed afterwards.
final class MocksCLITree {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-mocks-tree-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func write(_ relative: String, _ text: String) throws {
    let target = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: target)
  }

  func text(_ relative: String) throws -> String {
    String(decoding: try Data(contentsOf: url.appendingPathComponent(relative)), as: UTF8.self)
  }

  func duet(_ arguments: String...) throws -> MocksCLIResult { try MocksCLI.run(arguments, in: url) }
}
