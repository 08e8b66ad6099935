@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing

/// Where the token tests' fixtures and golden files live: outside the test
/// targets (SwiftPM would warn about files it does not handle), found from this file.
enum TokenFixtures {
  static let tests = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let repository = tests.deletingLastPathComponent()
  static let configs = tests.appendingPathComponent("Fixtures/design-tokens")
  static let stubs = tests.appendingPathComponent("Fixtures/stubs")
  static let golden = tests.appendingPathComponent("Golden/design-tokens")
  static let foyer = repository.appendingPathComponent("Examples/Foyer")

  static func configText(_ name: String) throws -> String {
    try String(contentsOf: configs.appendingPathComponent("\(name).yaml"), encoding: .utf8)
  }

  /// A fixture config, loaded as if it sat at `parity/design-tokens.yaml`.
  static func config(_ name: String) throws -> TokenConfig {
    try TokenConfigLoader.parse(configText(name), path: TokenConfig.defaultPath)
  }
}

/// Compares generated text with a checked-in golden file. With
/// `DUET_RECORD_GOLDEN=1` it rewrites the file and still fails, so a recording
/// never passes unseen; a mismatch shows a line-numbered diff and the command.
enum TokenGolden {
  static var recording: Bool { ProcessInfo.processInfo.environment["DUET_RECORD_GOLDEN"] == "1" }

  static func check(_ actual: String, file url: URL, refresh: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    if recording {
      try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try? Data(actual.utf8).write(to: url)
      Issue.record("recorded \(url.path); unset DUET_RECORD_GOLDEN and run the tests again", sourceLocation: sourceLocation)
      return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record("no golden file at \(url.path); record it with: \(refresh)", sourceLocation: sourceLocation)
      return
    }
    guard expected != actual else { return }
    Issue.record("\(url.lastPathComponent) differs from its golden file:\n\(diff(expected, actual))\nif the change is intended, refresh with: \(refresh)", sourceLocation: sourceLocation)
  }

  /// The differing lines, numbered, `-` golden and `+` generated (at most 40).
  static func diff(_ expected: String, _ actual: String) -> String {
    let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var lines: [String] = []
    for index in 0..<max(old.count, new.count) {
      let a = index < old.count ? String(old[index]) : nil
      let b = index < new.count ? String(new[index]) : nil
      guard a != b else { continue }
      let number = String(index + 1).leftPadded(to: 5)
      if let a { lines.append("\(number) - \(a)") }
      if let b { lines.append("\(number) + \(b)") }
      if lines.count >= 40 {
        lines.append("      …")
        break
      }
    }
    return lines.joined(separator: "\n")
  }
}

fileprivate extension String {
  func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}

/// A temporary tree for one test, removed when the test's scope ends.
final class TokenTempTree {
  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("duet-tokens-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: root) }

  func write(_ text: String, to path: String) throws {
    let url = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }

  func read(_ path: String) -> String? {
    FileManager.default.contents(atPath: root.appendingPathComponent(path).path).map { String(decoding: $0, as: UTF8.self) }
  }

  func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }

  /// Every regular file under the tree, relative paths, sorted: a snapshot to prove nothing was written.
  func snapshot() -> [String: Data] {
    var result: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return result }
    for case let url as URL in walker {
      if let data = FileManager.default.contents(atPath: url.path), !url.hasDirectoryPath {
        result[String(url.path.dropFirst(root.path.count + 1))] = data
      }
    }
    return result
  }
}
