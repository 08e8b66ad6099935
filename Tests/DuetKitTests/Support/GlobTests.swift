import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Glob dialect")
struct GlobTests {
  /// `*` stays inside one segment; `**` spans zero or more.
  @Test func matching() {
    #expect(Glob("src-kmp/*").matches("src-kmp/app"))
    #expect(!Glob("src-kmp/*").matches("src-kmp/app/inner"))
    #expect(Glob("src/**/*.swift").matches("src/a.swift"))
    #expect(Glob("src/**/*.swift").matches("src/x/y/a.swift"))
    #expect(!Glob("src/**/*.swift").matches("src/x/a.kt"))
    #expect(Glob("a?c").matches("abc"))
  }

  /// Hidden names match only a pattern segment that starts with a dot.
  @Test func hiddenNamesNeedADot() {
    #expect(!Glob("*").matches(".git"))
    #expect(Glob(".*").matches(".git"))
    #expect(!Glob("**/*.swift").matches(".hidden/a.swift"))
  }

  /// Expansion walks the disk, skips symbolic links and sorts by path bytes.
  @Test func expansionIsSortedAndSkipsLinks() throws {
    let root = try TemporaryFolder()
    try root.write("b/Z.swift", "")
    try root.write("b/a.swift", "")
    try root.write("a/x.swift", "")
    try root.write("a/.hidden.swift", "")
    try root.write("outside/secret.swift", "")
    try FileManager.default.createSymbolicLink(atPath: root.url.appendingPathComponent("b/link").path, withDestinationPath: root.url.appendingPathComponent("outside").path)
    let found = Glob("**/*.swift").expand(in: root.url, kind: .files)
    #expect(found == ["a/x.swift", "b/Z.swift", "b/a.swift", "outside/secret.swift"])
    #expect(Glob("b/**").expand(in: root.url, kind: .files) == ["b/Z.swift", "b/a.swift"])
    #expect(Glob("*").expand(in: root.url, kind: .directories) == ["a", "b", "outside"])
  }
}

/// A folder under the system temporary directory, removed when the value goes away.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  func write(_ path: String, _ text: String) throws {
    let file = url.appendingPathComponent(path)
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: file, atomically: false, encoding: .utf8)
  }
}
