import Foundation
import Testing
@testable import DuetTokens
@testable import DuetModel
@testable import DuetSupport

/// `KeyOrder` scans a small object's keys and indexes a large one's (issue 20):
/// order, positions, nested objects and repeated keys must come out the same.
@Suite("JSON key order, small and large objects")
struct KeyOrderTests {
  /// `{"k0": {"v": 0}, "k1": {"v": 1}, ...}`, one member a line from line 2.
  private func object(count: Int, extra: String = "") -> String {
    let members = (0..<count).map { "  \"k\($0)\": {\"v\": \($0)}" }
    return "{\n" + (members + (extra.isEmpty ? [] : [extra])).joined(separator: ",\n") + "\n}\n"
  }

  @Test(arguments: [3, 16, 17, 40])
  func orderPositionsAndChildren(count: Int) throws {
    let document = try JSONDocument.parse(Data(object(count: count).utf8), file: "t.json")
    guard case .object(let members) = document.root else {
      Issue.record("not an object")
      return
    }
    #expect(document.keys(at: [], of: members) == (0..<count).map { "k\($0)" })
    let last = "k\(count - 1)"
    #expect(document.location([last]) == SourceLocation(file: "t.json", line: count + 1, column: 3))
    #expect(document.location([last, "v"]) == SourceLocation(file: "t.json", line: count + 1, column: 3 + last.count + 5))
    #expect(document.location(["missing"]) == SourceLocation(file: "t.json", line: 1, column: 1))
  }

  @Test(arguments: [3, 16, 17, 40])
  func repeatedKeyNamesTheFirst(count: Int) {
    let text = object(count: count, extra: "  \"k1\": 5")
    do {
      _ = try JSONDocument.parse(Data(text.utf8), file: "t.json")
      Issue.record("accepted")
    } catch {
      #expect(error.diagnostics.map(\.description) == [
        "t.json:\(count + 2):3: error: k1: the key 'k1' is written twice in one object (first at 3:3); JSON keeps only the last"
      ])
    }
  }
}

/// A DTCG path's generated name: the ASCII fast path must give what the word
/// split gives for every name it takes.
@Suite("DTCG joined names")
struct DTCGJoinedNameTests {
  @Test func asciiPathMatchesTheWordSplit() {
    let parts = ["label", "Primary", "x", "2x", "a1B2", "UPPER", "", "z", "Labels", "9lives"]
    for first in parts {
      for second in parts {
        for third in parts {
          let path = [first, second, third][...]
          #expect(DTCGReader.joinedASCIIName(path) == DTCGReader.joinedWords(path), "\(path)")
        }
      }
    }
    #expect(DTCGReader.joinedName(["label", "primary"]) == "labelPrimary")
    #expect(DTCGReader.joinedName(["Label", "on-dark"]) == "labelOnDark")
    #expect(DTCGReader.joinedASCIIName(["on-dark"]) == nil)
    #expect(DTCGReader.joinedASCIIName(["été"]) == nil)
  }
}
