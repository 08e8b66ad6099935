import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Mock fingerprint block")
struct FingerprintBlockTests {
  static let hashA = String(repeating: "a", count: 64)
  static let hashB = String(repeating: "b", count: 64)

  /// The rendered block is the DESIGN §8 format line for line, with the config hash of its description.
  @Test func rendersTheFormat() {
    let block = FingerprintBlock(bundle: nil, description: "generator=none", inputs: [.init(path: "S/A.swift", sha256: Self.hashA)], bodyHash: Self.hashB)
    let expected = """
      // mock-templates:fingerprint v1
      // bundle: none
      // config: sha256:\(Digest.sha256("generator=none")) generator=none
      // input: sha256:\(Self.hashA) S/A.swift
      // body: sha256:\(Self.hashB)
      // mock-templates:end

      """
    #expect(block.rendered() == expected)
  }

  /// Inputs given in any order render the same block, sorted by path bytes (so `Z` before `a`).
  @Test func orderOfInputsDoesNotMatter() {
    let inputs: [FingerprintBlock.Input] = [
      .init(path: "S/b.swift", sha256: Self.hashA), .init(path: "S/Z.swift", sha256: Self.hashB),
      .init(path: "S/a/x.swift", sha256: Self.hashA), .init(path: "S/a.swift", sha256: Self.hashB),
    ]
    let reference = FingerprintBlock(bundle: "1", description: "generator=g", inputs: inputs, bodyHash: Self.hashA)
    for _ in 0..<20 {
      let shuffled = FingerprintBlock(bundle: "1", description: "generator=g", inputs: inputs.shuffled(), bodyHash: Self.hashA)
      #expect(shuffled.rendered() == reference.rendered())
    }
    #expect(reference.inputs.map(\.path) == ["S/Z.swift", "S/a.swift", "S/a/x.swift", "S/b.swift"])
  }

  /// What the renderer writes, the parser reads back to the same block, and the body starts right after the end line.
  @Test func parsesWhatItRenders() {
    let block = FingerprintBlock(bundle: "mockgen 2", description: "generator=mockgen --all", inputs: [.init(path: "S/a b.swift", sha256: Self.hashA)], bodyHash: Self.hashB)
    let text = block.rendered() + "body\n"
    guard case .block(let parsed, let start) = FingerprintParser.parse(Array(text.utf8)) else {
      Issue.record("not parsed")
      return
    }
    #expect(parsed == block)
    #expect(Array(text.utf8)[start...] == Array("body\n".utf8)[...])
  }

  /// A file that does not start with the start line has no block: all of it is body.
  @Test func noBlock() {
    #expect(FingerprintParser.parse([]) == .none)
    #expect(FingerprintParser.parse(Array("import XCTest\n// mock-templates:fingerprint v1\n".utf8)) == .none)
  }

  /// Nonsense, a cut-short block, a newer format and a bad hash are problems with a line number, never a crash.
  @Test(arguments: [
    ("// mock-templates:fingerprint v2\n// bundle: none\n", 1, "v2"),
    ("// mock-templates:fingerprint v1\n// bundle: none\n", 2, "cut short"),
    ("// mock-templates:fingerprint v1\n// bundle: none\n// config: sha256:zz generator=none\n", 3, "config"),
    ("// mock-templates:fingerprint v1\n// bundle: none\n// config: sha256:\(String(repeating: "0", count: 64)) generator=none\nlol\n// mock-templates:end\nbody", 4, "'lol'"),
    ("// mock-templates:fingerprint v1\n// bundle: none\n// config: sha256:\(String(repeating: "0", count: 64)) g\n// mock-templates:end\n", 4, "ends early"),
    ("// mock-templates:fingerprint v1\n// bundle: none\n// config: sha256:\(String(repeating: "0", count: 64)) g\n// body: sha256:\(String(repeating: "0", count: 64))\n// mock-templates:en", 5, "expected '// mock-templates:end'"),
    ("// mock-templates:fingerprint v1\n// bundle: none\n// config: sha256:\(String(repeating: "0", count: 64)) g\n// input: sha256:\(String(repeating: "0", count: 64)) A\n// input: sha256:\(String(repeating: "1", count: 64)) A\n", 5, "listed twice"),
    ("// mock-templates:fingerprint v1\n// bundle: none\n// config: sha256:\(String(repeating: "0", count: 64)) g\n// input: sha256:\(String(repeating: "0", count: 64))\n", 4, "input"),
    ("// mock-templates:fingerprint\n", 1, "expected"),
  ])
  func malformed(text: String, line: Int, mentions: String) {
    guard case .malformed(let problem) = FingerprintParser.parse(Array(text.utf8)) else {
      Issue.record("not reported as malformed: \(text.debugDescription)")
      return
    }
    #expect(problem.line == line)
    #expect(problem.message.contains(mentions), "\(problem)")
  }

  /// After an unreadable block the body is taken to start after the end line, or after the block-like lines when there is none.
  @Test func bodyStartAfterAProblem() {
    let text = "// mock-templates:fingerprint v1\n// bundle: none\nnonsense\n// mock-templates:end\nBODY"
    guard case .malformed(let problem) = FingerprintParser.parse(Array(text.utf8)) else {
      Issue.record("not malformed")
      return
    }
    #expect(String(decoding: Array(text.utf8)[problem.bodyStart...], as: UTF8.self) == "BODY")
    let cut = "// mock-templates:fingerprint v1\n// bundle: none\nclass Mock {}\n"
    guard case .malformed(let cutProblem) = FingerprintParser.parse(Array(cut.utf8)) else {
      Issue.record("not malformed")
      return
    }
    #expect(String(decoding: Array(cut.utf8)[cutProblem.bodyStart...], as: UTF8.self) == "class Mock {}\n")
  }

  /// Binary garbage and an endless line after the start line are reported, in bounded time.
  @Test func hostileBytes() {
    var bytes = Array("// mock-templates:fingerprint v1\n".utf8)
    bytes += [UInt8](repeating: 0xFF, count: 200_000)
    guard case .malformed(let problem) = FingerprintParser.parse(bytes) else {
      Issue.record("not malformed")
      return
    }
    #expect(problem.line == 2)
  }

  /// Uppercase hex and CRLF line ends, as another tool might write them, still read as the same block.
  @Test func toleratesUppercaseHexAndCRLF() {
    let block = FingerprintBlock(bundle: nil, description: "generator=none", inputs: [.init(path: "A.swift", sha256: Self.hashA)], bodyHash: Self.hashB)
    let text = block.rendered().uppercasingHex().replacingOccurrences(of: "\n", with: "\r\n")
    guard case .block(let parsed, _) = FingerprintParser.parse(Array(text.utf8)) else {
      Issue.record("not parsed")
      return
    }
    #expect(parsed == block)
  }

  /// The streamed reader finds the same block and body as the in-memory parse when lines cross its 256 KiB chunks.
  @Test func streamedAcrossChunks() throws {
    let tree = try MocksTempTree()
    let inputs = (0..<4000).map { FingerprintBlock.Input(path: "Sources/Shell/File\($0).swift", sha256: Digest.sha256("\($0)")) }
    let body = String(repeating: "let x = 1 // a body line\n", count: 20_000)
    let block = FingerprintBlock(bundle: nil, description: "generator=none", inputs: inputs, bodyHash: Digest.sha256(body))
    try tree.write("big.swift", block.rendered() + body)
    let reader = try MockFileReader(absolutePath: tree.path("big.swift"), displayPath: "big.swift")
    guard case .block(let parsed, _) = try FingerprintParser.parse(reader) else {
      Issue.record("not parsed")
      return
    }
    var digest = Digest()
    try reader.hashRest(into: &digest)
    #expect(parsed == block)
    #expect(digest.hex() == Digest.sha256(body))
  }
}

extension String {
  /// The hex runs after `sha256:` in uppercase.
  fileprivate func uppercasingHex() -> String {
    split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      guard let range = line.range(of: "sha256:") else { return String(line) }
      let hex = line[range.upperBound...].prefix(64)
      return line.replacingOccurrences(of: String(hex), with: hex.uppercased())
    }.joined(separator: "\n")
  }
}
