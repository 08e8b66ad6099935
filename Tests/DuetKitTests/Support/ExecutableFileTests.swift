import Foundation
import Testing
@testable import DuetSupport

/// How duet finds a program on PATH itself (git, without an `env` start per
/// call): the first absolute folder holding a runnable file of that name.
@Suite struct ExecutableFileTests {
  final class Folders {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("duet-path-\(UUID().uuidString)")
    init() throws {
      for name in ["a", "b", "c"] {
        try FileManager.default.createDirectory(at: url.appendingPathComponent(name), withIntermediateDirectories: true)
      }
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    func program(_ path: String, mode: Int16) throws {
      let file = url.appendingPathComponent(path)
      try Data("#!/bin/sh\n".utf8).write(to: file)
      try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
    }
  }

  @Test func theFirstRunnableFileOnThePathIsFound() throws {
    let folders = try Folders()
    try folders.program("b/tool", mode: 0o755)
    try folders.program("c/tool", mode: 0o755)
    let path = ["a", "b", "c"].map { folders.url.appendingPathComponent($0).path }.joined(separator: ":")
    #expect(ExecutableFile.onPath("tool", searchPath: path) == folders.url.appendingPathComponent("b/tool").path)
  }

  @Test func aFolderOfThatNameOrARelativeEntryIsPassedOver() throws {
    let folders = try Folders()
    try FileManager.default.createDirectory(at: folders.url.appendingPathComponent("a/tool"), withIntermediateDirectories: true)
    try folders.program("c/tool", mode: 0o755)
    let path = "relative:" + ["a", "b", "c"].map { folders.url.appendingPathComponent($0).path + "/" }.joined(separator: "::")
    #expect(ExecutableFile.onPath("tool", searchPath: path) == folders.url.appendingPathComponent("c/tool").path)
  }

  @Test func nothingFoundIsNil() throws {
    let folders = try Folders()
    #expect(ExecutableFile.onPath("tool", searchPath: folders.url.appendingPathComponent("a").path) == nil)
    #expect(ExecutableFile.onPath("tool", searchPath: nil) == nil)
    #expect(ExecutableFile.onPath("tool", searchPath: "") == nil)
  }
}
