import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetOutput
@testable import DuetProcess
@testable import DuetSupport

@Suite("Support pieces")
struct SupportTests {
  /// SHA-256 matches the published test vectors, fed whole or in pieces.
  @Test func digestVectors() throws {
    #expect(Digest.sha256("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(Digest.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    var pieces = Digest()
    pieces.update("a")
    pieces.update("bc")
    #expect(pieces.hex() == Digest.sha256("abc"))
    let folder = try TemporaryFolder()
    try folder.write("f.txt", "abc")
    #expect(try Digest.sha256(fileAt: folder.url.appendingPathComponent("f.txt").path) == Digest.sha256("abc"))
  }

  /// Durations accept 90s, 10m, 1h and plain seconds, and refuse words.
  @Test func durations() {
    #expect(DurationText.seconds("90s") == 90)
    #expect(DurationText.seconds("10m") == 600)
    #expect(DurationText.seconds("1h") == 3600)
    #expect(DurationText.seconds("1h30m") == 5400)
    #expect(DurationText.seconds("45") == 45)
    #expect(DurationText.seconds("10 minutes") == nil)
    #expect(DurationText.seconds("0s") == nil)
    #expect(DurationText.seconds("m") == nil)
    #expect(DurationText.formatTimeout(1800) == "30m")
  }

  /// The nearest candidate is suggested only when it is a plausible typo.
  @Test func suggestions() {
    #expect(Suggestion.nearest(to: "neds", in: ["name", "needs", "inputs"]) == "needs")
    #expect(Suggestion.nearest(to: "zzzzzz", in: ["name", "needs"]) == nil)
  }

  /// Atomic writes replace whole files, leave unchanged files untouched, and refuse paths out of the tree.
  @Test func atomicWrites() throws {
    let folder = try TemporaryFolder()
    #expect(try AtomicFile.write(Data("one".utf8), to: "out/a.txt", in: folder.url))
    #expect(try !AtomicFile.write(Data("one".utf8), to: "out/a.txt", in: folder.url))
    #expect(try String(contentsOf: folder.url.appendingPathComponent("out/a.txt"), encoding: .utf8) == "one")
    #expect(throws: FileError.self) { try AtomicFile.write(Data(), to: "../escape.txt", in: folder.url) }
    #expect(throws: FileError.self) { try AtomicFile.write(Data(), to: "/tmp/abs.txt", in: folder.url) }
    try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link").path, withDestinationPath: "/tmp")
    #expect(throws: FileError.self) { try AtomicFile.write(Data(), to: "link/x.txt", in: folder.url) }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("out").path)
    #expect(leftovers == ["a.txt"])
  }

  /// The tail keeps error-looking lines and the last 30 lines, however much is written.
  @Test func logTailIsBounded() {
    var tail = LogTail()
    tail.append("compiling\nsrc/a.swift:1:1: error: boom\n")
    for i in 0..<10_000 { tail.append("line \(i)\n") }
    tail.append("no newline at the end")
    tail.close()
    #expect(tail.errorLines == ["src/a.swift:1:1: error: boom"])
    #expect(tail.lastLines.count == 30)
    #expect(tail.lastLines.last == "no newline at the end")
    #expect(tail.reportLines.first == "src/a.swift:1:1: error: boom")
  }

  /// Tables pad columns and cut the last one to the width.
  @Test func tableFitsTheWidth() {
    let lines = TextTable(header: ["a", "command"], rows: [["lane", "\(String(repeating: "x", count: 200))"]]).lines(maxWidth: 40).map(\.text)
    #expect(lines[0] == "a     command")
    #expect(lines[1].count <= 40)
    #expect(lines[1].hasSuffix("…"))
  }
}
