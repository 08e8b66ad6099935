import Testing
@testable import DuetSandbox

/// Issue 56, item 2: a folder all of whose entries a lane declares is bound
/// once, whole; any other stays bound file by file, so the lane sees the same.
@Suite("Binding a lane's inputs by folder")
struct InputMountsTests {
  /// A tree: `src/` holds `a.swift`, `b.swift` and `deep/c.swift`; `docs/`
  /// holds `x.md` and a hidden `.draft`; `app/` holds `main.kt` and a link.
  let folders: [String: [(name: String, kind: InputMounts.Kind)]] = [
    "src": [("a.swift", .file), ("b.swift", .file), ("deep", .folder)],
    "src/deep": [("c.swift", .file)],
    "docs": [("x.md", .file), (".draft", .file)],
    "app": [("main.kt", .file), ("current", .other)],
    "empty": [],
  ]

  func collapse(_ files: [String], written: [String] = []) -> [String] {
    InputMounts.collapse(files, written: written) { folders[$0] }
  }

  @Test func aWhollyDeclaredFolderIsBoundOnce() {
    #expect(collapse(["src/a.swift", "src/b.swift", "src/deep/c.swift"]) == ["src"])
  }

  @Test func aFolderWithAnythingUndeclaredStaysFileByFile() {
    #expect(collapse(["src/a.swift", "src/deep/c.swift"]) == ["src/a.swift", "src/deep"], "b.swift is not declared")
    #expect(collapse(["docs/x.md"]) == ["docs/x.md"], "a hidden file the glob left out stays hidden")
    #expect(collapse(["app/main.kt"]) == ["app/main.kt"], "a link is never shown through its folder")
  }

  @Test func aFolderTheLaneWritesIntoStaysFileByFile() {
    let files = ["src/a.swift", "src/b.swift", "src/deep/c.swift"]
    #expect(collapse(files, written: ["src/deep/gen"]) == ["src/a.swift", "src/b.swift", "src/deep/c.swift"])
    #expect(collapse(files, written: ["src"]) == files.sorted())
    #expect(collapse(files, written: ["build"]) == ["src"])
  }

  @Test func anUnreadableFolderStaysFileByFile() {
    #expect(InputMounts.collapse(["gone/a.txt"], written: []) { _ in nil } == ["gone/a.txt"])
    #expect(collapse(["top.txt"]) == ["top.txt"], "a file at the root is bound alone: the root is never bound whole")
  }
}
