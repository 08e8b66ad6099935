import Foundation
import Testing
@testable import DuetApp
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport
@testable import DuetHistory

/// The pure parts of issue 26's cache key: path text, the input walk, the
/// conditions a pass was judged under, and the decision made from them.
@Suite("The cache key: what a pass was judged on")
struct CacheKeyTests {
  /// Path text is one to one: plain paths unchanged, a backslash, controls and
  /// bytes that are not UTF-8 escaped, NFC and NFD spellings kept apart.
  @Test func pathTextIsOneToOne() {
    #expect(PathBytes.text(Array("src/a.swift".utf8)) == "src/a.swift")
    #expect(PathBytes.text(Array("src/é.txt".utf8)) == "src/é.txt")
    #expect(PathBytes.text([0x63, 0x61, 0x66, 0xE9]) == "caf\\xE9")
    #expect(PathBytes.text(Array("a\\xE9".utf8)) == "a\\\\xE9")
    #expect(PathBytes.text([0x61, 0x0A, 0x62]) == "a\\x0Ab")
    #expect(PathBytes.text([0xC3]) == "\\xC3")
    #expect(PathBytes.text([0xC2, 0x85]) == "\\xC2\\x85")
    let nfc = PathBytes.text([0xC3, 0xA9]), nfd = PathBytes.text([0x65, 0xCC, 0x81])
    #expect(Array(nfc.utf8) != Array(nfd.utf8))
    // Every pair of distinct short byte strings gives distinct text.
    var seen: [[UInt8]: [UInt8]] = [:]
    for a in [0x00, 0x0A, 0x41, 0x5C, 0x78, 0x80, 0xC3, 0xA9, 0xFF] as [UInt8] {
      for b in [0x00, 0x0A, 0x41, 0x5C, 0x78, 0x80, 0xC3, 0xA9, 0xFF] as [UInt8] {
        let text = Array(PathBytes.text([a, b]).utf8)
        #expect(seen[text] == nil, "\([a, b]) and \(seen[text] ?? []) give one text")
        seen[text] = [a, b]
      }
    }
  }

  /// The walk sees hidden names, a Latin-1 name, a link to a file (text and
  /// content), a link to a folder (walked), a link out of the tree and one to
  /// nothing; `.git` and `.duet` never.
  @Test func inputWalkDropsNothing() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.txt", "a")
    try tree.write("src/.hidden", "h")
    try tree.write("src/.git/HEAD", "ref")
    try tree.write("src/.duet/x", "x")
    try tree.write("lib/b.txt", "b")
    try tree.write("shared.txt", "s")
    let src = tree.url.appendingPathComponent("src").path
    let latin1 = PathBytes.cString(Array(src.utf8) + Array("/caf".utf8) + [0xE9])
    let fd = open(latin1, O_WRONLY | O_CREAT, 0o644)
    #expect(fd >= 0)
    close(fd)
    try FileManager.default.createSymbolicLink(atPath: src + "/file-link", withDestinationPath: "../shared.txt")
    try FileManager.default.createSymbolicLink(atPath: src + "/folder-link", withDestinationPath: "../lib")
    try FileManager.default.createSymbolicLink(atPath: src + "/out-link", withDestinationPath: "/etc/hostname")
    try FileManager.default.createSymbolicLink(atPath: src + "/dangling", withDestinationPath: "../nowhere")
    try FileManager.default.createSymbolicLink(atPath: src + "/loop", withDestinationPath: "..")
    let found = InputFiles.collect(["src/**"], root: tree.url)
    let paths = found.files.map(\.path)
    #expect(paths.contains("src/a.txt") && paths.contains("src/.hidden") && paths.contains("src/caf\\xE9"))
    #expect(paths.contains("src/folder-link/b.txt"))
    #expect(!paths.contains { $0.contains(".git") || $0.contains(".duet") }, "\(paths)")
    let keys = Dictionary(uniqueKeysWithValues: found.files.map { ($0.path, $0.sha256) })
    #expect(keys["src/file-link"]?.hasSuffix("-" + Digest.sha256("s")) == true)
    #expect(keys["src/out-link"]?.hasSuffix("-outside") == true)
    #expect(keys["src/dangling"]?.hasSuffix("-dangling") == true)
    #expect(found.problems.isEmpty)
    // The same walk twice gives the same key; retargeting a link changes it.
    #expect(InputFiles.collect(["src/**"], root: tree.url).files == found.files)
    try FileManager.default.removeItem(atPath: src + "/dangling")
    try FileManager.default.createSymbolicLink(atPath: src + "/dangling", withDestinationPath: "../elsewhere")
    #expect(FingerprintParts.changedPaths(InputFiles.collect(["src/**"], root: tree.url).files, since: found.files) == ["src/dangling"])
  }

  /// A FIFO under an input is in the key by its kind and is never opened (a
  /// read would block).
  @Test func fifoIsKeyedByKind() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.txt", "a")
    #expect(mkfifo(tree.url.appendingPathComponent("src/pipe").path, 0o644) == 0)
    let found = InputFiles.collect(["src/*"], root: tree.url)
    #expect(found.files.first { $0.path == "src/pipe" }?.sha256.hasPrefix("special-") == true)
  }

  /// Conditions round-trip through the store's text, and refuse exactly the runs they do not cover.
  @Test func passConditionsServeOnlyWhatTheyCover() {
    let all = PassConditions(strict: true, partial: true, moved: ["a b", "c"])
    #expect(PassConditions.parse(all.serialized) == all)
    #expect(PassConditions.parse(nil) == PassConditions())
    let plain = PassConditions()
    #expect(plain.refusal(strict: false, partial: false) == nil)
    #expect(plain.refusal(strict: false, partial: true) == nil)
    #expect(plain.refusal(strict: true, partial: false)?.contains("--strict") == true)
    let strict = PassConditions(strict: true)
    #expect(strict.refusal(strict: true, partial: false) == nil)
    let partial = PassConditions(partial: true)
    #expect(partial.refusal(strict: false, partial: true) == nil)
    #expect(partial.refusal(strict: false, partial: false)?.contains("change list") == true)
    #expect(PassConditions(moved: ["f"]).refusal(strict: false, partial: false)?.contains("while it last ran (f)") == true)
  }

  /// The decision: an equal fingerprint serves only a pass whose conditions cover the run.
  @Test func decisionWeighsConditions() throws {
    let tree = try TemporaryFolder()
    try tree.write("src/a.txt", "a")
    var lane = Lane(name: "l", step: .shell("true"), location: SourceLocation(file: "m", line: 1, column: 1))
    lane.inputs = ["src/**"]
    let manifest = Manifest(path: "m", lanes: [lane])
    let prints = InputFingerprint.compute(manifest: manifest, builtins: .standard, root: tree.url, selected: [0], git: GitStateOnce { nil }, duetVersion: "t", environment: [:])
    let fingerprint = try #require(prints.fingerprints[0])
    func decide(_ judged: PassConditions, _ run: CacheCheck.RunConditions) -> CacheCheck.Decision? {
      CacheCheck.decide(manifest: manifest, selected: [0], settled: [:], fingerprints: prints,
                        history: ["l": .init(outcome: .pass, fingerprint: fingerprint, judged: judged)], entries: [0: judged],
                        noCache: false, run: run)[0]
    }
    #expect(decide(PassConditions(), .init()) == .cached)
    #expect(decide(PassConditions(), .init(strict: true)) != .cached)
    #expect(decide(PassConditions(strict: true), .init()) == .cached)
    #expect(decide(PassConditions(partial: true), .init()) != .cached)
    #expect(decide(PassConditions(), .init(partial: true)) == .cached)
    #expect(decide(PassConditions(moved: ["src/a.txt"]), .init()) != .cached)
  }

  /// Under `.ordinary` (inputs) a wildcard takes hidden names but never `.git` or `.duet`.
  @Test func hiddenNamesInInputs() {
    #expect(!Glob("src/**").matches("src/.env"))
    #expect(Glob("src/**").matches("src/.env", hidden: .ordinary))
    #expect(Glob("src/*").matches("src/.env", hidden: .ordinary))
    #expect(!Glob("**").matches(".git/HEAD", hidden: .ordinary))
    #expect(!Glob("src/**").matches("src/.duet/x", hidden: .ordinary))
    #expect(Glob(".git/HEAD").matches(".git/HEAD", hidden: .ordinary))
  }
}
