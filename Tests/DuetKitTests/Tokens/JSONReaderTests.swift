import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// Foundation's reading of JSON, as `JSONDocument` used it before issue 20,
/// kept only to check that the one-pass reader gives the same values.
private func foundationValue(_ text: String) throws -> JSONValue? {
  func convert(_ value: Any) -> JSONValue? {
    switch value {
    case let text as String: return .string(text)
    case let items as [Any]:
      var result: [JSONValue] = []
      for item in items {
        guard let converted = convert(item) else { return nil }
        result.append(converted)
      }
      return .array(result)
    case let members as [String: Any]:
      var result: [String: JSONValue] = [:]
      for (key, item) in members {
        guard let converted = convert(item) else { return nil }
        result[key] = converted
      }
      return .object(result)
    case is NSNull: return .null
    case let number as NSNumber:
      return type(of: number) == type(of: NSNumber(value: true)) ? .bool(number.boolValue) : .number(number.doubleValue)
    default: return nil
    }
  }
  return convert(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
}

@Suite("JSON read in one pass")
struct JSONReaderTests {
  static let documents = [
    #"{"a": 1, "b": [true, false, null], "c": {"d": "e"}}"#,
    #"  [ 0, -0, 1.5, -2.25e3, 1E-7, 12345678901234, 0.1, 3.0e+2 ]  "#,
    #"{"esc": "quote \" backslash \\ slash \/ \b\f\n\r\t", "uni": "\u00e9\u4e2d\ud83d\ude00", "raw": "é中😀"}"#,
    #""just a string""#,
    "42",
    "{\n  \"$type\": \"color\",\n  \"nested\": { \"deeper\": { \"list\": [{\"x\": 1}, [], {}] } }\n}\n",
    "\u{FEFF}{\"bom\": true}",
    // Foundation's parser takes one trailing comma, so a file that loaded before still loads.
    "{\"a\": [1, 2,], \"b\": {\"c\": null,},}",
  ]

  /// Every document reads to the same values as Foundation's parser gives.
  @Test func sameValuesAsFoundation() throws {
    for text in Self.documents {
      let expected = try foundationValue(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
      let document = try JSONDocument.parse(Data(text.utf8), file: "t.json")
      #expect(document.root == expected, "\(text)")
    }
  }

  /// Keys keep their file order and the line and column (in characters) each starts at, nested objects by path.
  @Test func keyOrderAndPositions() throws {
    let text = "{\n  \"zeta\": 1,\n  \"été\": { \"b\": 2, \"a\": { \"x\": [] } },\n  \"alpha\": [ { \"in\": 1 } ]\n}\n"
    let document = try JSONDocument.parse(Data(text.utf8), file: "t.json")
    guard case .object(let members) = document.root, case .object(let inner) = members["été"] else {
      Issue.record("not an object")
      return
    }
    #expect(document.keys(at: [], of: members) == ["zeta", "été", "alpha"])
    #expect(document.keys(at: ["été"], of: inner) == ["b", "a"])
    #expect(document.location(["zeta"]) == SourceLocation(file: "t.json", line: 2, column: 3))
    #expect(document.location(["été", "a"]) == SourceLocation(file: "t.json", line: 3, column: 20))
    #expect(document.location(["été", "a", "x"]) == SourceLocation(file: "t.json", line: 3, column: 27))
  }

  /// What is not JSON is refused with the line and column where reading stopped, as Foundation refuses it.
  @Test func refusesWhatFoundationRefuses() throws {
    let broken: [(String, Int, Int)] = [
      ("{\"a\": tru}", 1, 10),
      ("{\"a\": 1,,}", 1, 9),
      ("[1,,2]", 1, 4),
      ("{,}", 1, 2),
      ("[1, 2", 1, 6),
      ("{\"a\" 1}", 1, 6),
      ("[01]", 1, 3),
      ("[1.]", 1, 4),
      ("{\"a\": \"line\nbreak\"}", 1, 12),
      ("{\"a\": \"\\x\"}", 1, 9),
      ("{}\n{}", 2, 1),
      ("", 1, 1),
      ("// comment\n{}", 1, 1),
      ("{\"é\": nope}", 1, 8),
    ]
    for (text, line, column) in broken {
      #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) }
      do {
        _ = try JSONDocument.parse(Data(text.utf8), file: "t.json")
        Issue.record("accepted \(text.debugDescription)")
      } catch {
        let message = error.diagnostics.first?.description ?? ""
        #expect(message.hasPrefix("t.json:\(line):\(column): error: not valid JSON: "), "\(text.debugDescription): \(message)")
      }
    }
  }

  /// A key written twice is reported at both places, with the path of its object.
  @Test func duplicateKeysByPath() throws {
    let text = "{\"g\": {\"list\": [{\"k\": 1, \"k\": 2}]}}"
    do {
      _ = try JSONDocument.parse(Data(text.utf8), file: "t.json")
      Issue.record("accepted")
    } catch {
      #expect(error.diagnostics.map(\.description) == [
        "t.json:1:26: error: g.list.0.k: the key 'k' is written twice in one object (first at 1:18); JSON keeps only the last"
      ])
    }
  }
}
