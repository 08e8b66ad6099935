import Foundation
import Testing
@testable import DuetTokens
@testable import DuetModel
@testable import DuetSupport

/// Duplicate keys are found by scanning a small mapping's pairs and by hashing
/// a large one's (issue 20); both must report the same keys at the same places,
/// and bytes read from a file must parse as the same text does.
@Suite("YAML duplicate keys, small and large mappings")
struct YAMLKeyScanTests {
  private func errors(_ text: String) -> [String] {
    do {
      _ = try YAMLParser.parse(text, file: "k.yaml")
      return []
    } catch {
      return error.diagnostics.map(\.description)
    }
  }

  /// A mapping of `count` keys `k0`..., with `k<repeat>` written again after key `after`.
  private func mapping(count: Int, repeating repeated: Int, after: Int) -> String {
    var lines: [String] = []
    for index in 0..<count {
      lines.append("k\(index): \(index)")
      if index == after { lines.append("k\(repeated): again") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  @Test(arguments: [3, 15, 16, 17, 40])
  func duplicatesAtAnySize(count: Int) {
    let text = mapping(count: count, repeating: 1, after: count - 1)
    #expect(errors(text) == ["k.yaml:\(count + 1):1: error: duplicate key 'k1' in this mapping"])
    // Repeated late in a large mapping, after the keys have been hashed.
    let late = mapping(count: count, repeating: count - 2, after: count - 1)
    #expect(errors(late) == ["k.yaml:\(count + 1):1: error: duplicate key 'k\(count - 2)' in this mapping"])
  }

  @Test func noFalseDuplicatesInALargeMapping() throws {
    let node = try YAMLParser.parse(mapping(count: 40, repeating: 0, after: 100), file: "k.yaml")
    #expect(node.mapping?.count == 40)
    #expect(node["k39"]?.scalar == "39")
  }

  /// Keys equal as Swift strings (canonically equivalent) are one key either way.
  @Test func equivalentKeysAreDuplicates() {
    for count in [2, 20] {
      var text = (0..<count).map { "k\($0): 1" }.joined(separator: "\n")
      text += "\n\"caf\u{E9}\": 1\n\"cafe\u{301}\": 2\n"
      #expect(errors(text) == ["k.yaml:\(count + 2):1: error: duplicate key 'cafe\u{301}' in this mapping"])
    }
  }

  /// `parse(Data)` hands checked bytes to libyaml without a String between.
  @Test func bytesParseAsTheirText() throws {
    let text = "a: 1\nlist:\n  - x\n  - \"y\"\n"
    let fromData = try YAMLParser.parse(Data(text.utf8), file: "f.yaml")
    let fromText = try YAMLParser.parse(text, file: "f.yaml")
    #expect(fromData["list"]?.sequence?[1].location == fromText["list"]?.sequence?[1].location)
    #expect(fromData["list"]?.sequence?[1].scalar == "y")
    #expect(try YAMLParser.parse(Data(), file: "f.yaml").isNull)
    do {
      _ = try YAMLParser.parse(Data([0x61, 0x3A, 0x20, 0xFF, 0x0A]), file: "f.yaml")
      Issue.record("accepted")
    } catch {
      #expect(error.diagnostics.map(\.description) == ["f.yaml:1:4: error: f.yaml is not UTF-8 text: byte 0xFF is not UTF-8"])
    }
  }
}
