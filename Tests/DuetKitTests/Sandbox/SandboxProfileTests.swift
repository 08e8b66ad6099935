import Testing
@testable import DuetSandbox

/// Issue 56, item 1 on macOS: the sandbox-exec profile of a lane, read as
/// text here (it is a pure function of the paths), since Linux cannot run it.
@Suite("The sandbox's macOS profile")
struct SandboxProfileTests {
  let paths = SandboxProfile.Paths(root: "/Users/me/tree", readable: ["/Users/me/tree/src/a.txt", "/Users/me/tree/build/lib"],
                                   writable: ["/Users/me/tree/out", "/Users/me/tree/reports"],
                                   temporary: ["/private/tmp", "/private/var/folders/xy/T"], directory: "/Users/me/tree/app")

  @Test func theTreeIsHiddenButForTheDeclaredFiles() {
    let lines = SandboxProfile.make(paths, network: false).components(separatedBy: "\n")
    #expect(lines.prefix(2) == ["(version 1)", "(allow default)"])
    let hide = lines.firstIndex(of: "(deny file-read* (subpath \"/Users/me/tree\"))")
    let show = lines.firstIndex(of: "(allow file-read*")
    #expect(hide != nil && show != nil && hide! < show!, "the last matching rule wins: the files are shown after the tree is hidden")
    let shown = Array(lines[show!...].prefix { $0 != ")" })
    #expect(shown.contains("    (subpath \"/Users/me/tree/src/a.txt\")"))
    #expect(shown.contains("    (subpath \"/Users/me/tree/build/lib\")"), "a need's output folder")
    #expect(shown.contains("    (subpath \"/Users/me/tree/out\")"), "its own outputs can be read back")
    #expect(!shown.contains { $0.contains("(subpath \"/Users/me/tree\")") })
  }

  @Test func foldersAboveTheFilesAreKnownByNameOnly() {
    let text = SandboxProfile.make(paths, network: false)
    let lines = text.components(separatedBy: "\n")
    let start = lines.firstIndex(of: "(allow file-read-metadata")!
    let named = Array(lines[(start + 1)...].prefix { $0 != ")" })
    #expect(named == ["/Users/me/tree", "/Users/me/tree/app", "/Users/me/tree/build", "/Users/me/tree/src"].map { "    (literal \"\($0)\")" })
    #expect(!text.contains("(literal \"/Users/me\")"), "nothing above the tree is named: outside it, reads are open")
  }

  @Test func onlyOutputsReportsAndTemporaryFoldersAreWritable() {
    let lines = SandboxProfile.make(paths, network: false).components(separatedBy: "\n")
    let deny = lines.firstIndex(of: "(deny file-write*)")!
    let allow = lines.lastIndex(of: "(allow file-write*")!
    #expect(deny < allow)
    let writable = Array(lines[(allow + 1)...].prefix { $0 != ")" })
    #expect(Array(writable.prefix(4)) == ["/Users/me/tree/out", "/Users/me/tree/reports", "/private/tmp", "/private/var/folders/xy/T"]
      .map { "    (subpath \"\($0)\")" })
    #expect(writable.contains("    (literal \"/dev/null\")"))
    #expect(!writable.contains { $0.contains("src/a.txt") }, "an input is read-only")
  }

  @Test func theNetworkIsClosedUnlessTheLaneAsks() {
    let closed = SandboxProfile.make(paths, network: false)
    #expect(closed.contains("(deny network*)\n(allow network* (local ip \"localhost:*\"))"))
    let open = SandboxProfile.make(paths, network: true)
    #expect(!open.contains("network*"))
  }

  @Test func pathsAreEscapedSoNoneEndsItsString() {
    #expect(SandboxProfile.quoted(#"/t/a "b"\c"#) == #""/t/a \"b\"\\c""#)
    #expect(SandboxProfile.quoted("/t/line\nbreak\u{1}") == #""/t/line\nbreak\x01""#)
    var odd = paths
    odd.readable = ["/Users/me/tree/src/\"))(allow file-write* (subpath \"/"]
    let text = SandboxProfile.make(odd, network: false)
    #expect(text.contains(#"    (subpath "/Users/me/tree/src/\"))(allow file-write* (subpath \"/")"#))
    #expect(!text.contains("(subpath \"/\")"))
  }
}
