import Foundation
import Testing
@testable import DuetOutput
@testable import DuetSupport

/// How duet printed a report before reports were values: a dictionary through
/// `JSONSerialization`, with the current `schemaVersion`. The reports' tests build that
/// dictionary as the old code did and expect the same bytes from `ReportJSON`.
enum LegacyJSON {
  static func text(_ object: [String: Any]) -> String {
    var object = object
    object["schemaVersion"] = ReportJSON.schemaVersion
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    return String(decoding: data, as: UTF8.self)
  }

  /// A report survives encode and decode unchanged (`schemaVersion` is ignored on the way back).
  static func roundTrips<Report: Codable & Equatable>(_ report: Report) throws -> Bool {
    try JSONDecoder().decode(Report.self, from: Data(ReportJSON.text(report).utf8)) == report
  }
}

struct ReportJSONTests {
  struct Sample: Codable, Equatable {
    var path: String
    var ratio: Double
    var whole: Double
    var empty: [String]
    var nested: [[Int]]
    @Nullable var exitCode: Int?
    @Nullable var signal: Int?
    var note: String?
  }

  let sample = Sample(path: "a/b \"c\" \u{1b}\té😀", ratio: 4.478923847, whole: 600, empty: [], nested: [[], [1]],
                      exitCode: nil, signal: 9, note: nil)

  /// Escaping, numbers, empty lists, nulls and the version are printed as `JSONSerialization` printed them.
  @Test func printsAsJSONSerializationDid() throws {
    let legacy = LegacyJSON.text([
      "path": sample.path, "ratio": sample.ratio, "whole": sample.whole, "empty": [String](), "nested": [[Int](), [1]],
      "exitCode": NSNull(), "signal": 9,
    ])
    #expect(ReportJSON.text(sample) == legacy)
    #expect(ReportJSON.text(sample).contains("\"exitCode\" : null"))
    #expect(!ReportJSON.text(sample).contains("note"))
  }

  @Test func roundTrips() throws {
    #expect(try LegacyJSON.roundTrips(sample))
    let decoded = try JSONDecoder().decode(Sample.self, from: Data(ReportJSON.text(sample).utf8))
    #expect(decoded.exitCode == nil && decoded.signal == 9)
  }

  /// On Linux `JSONEncoder` sorts keys by code point, where `JSONSerialization`
  /// ignored case and read digits as numbers: the same order for every key duet
  /// prints, not for all (the byte tests of each report would catch a new one).
  @Test func keyOrderIsCodePointOrder() throws {
    #if os(Linux)
    struct Keys: Encodable {
      var aa = 1, aB = 2, p9 = 3, p10 = 4
    }
    let text = ReportJSON.text(Keys())
    let order = ["aB", "aa", "p10", "p9", "schemaVersion"].map { text.range(of: "\"\($0)\"")!.lowerBound }
    #expect(order == order.sorted())
    #endif
  }

  @Test func diagnosticsKeepTheirPlaceOnlyWhenTheyHaveOne() throws {
    struct Errors: Codable, Equatable { var errors: [DiagnosticJSON] }
    let errors = Errors(errors: [
      DiagnosticJSON(Diagnostic("bad", at: SourceLocation(file: "x.yaml", line: 3, column: 4))),
      DiagnosticJSON(Diagnostic("worse")),
    ])
    #expect(ReportJSON.text(errors) == LegacyJSON.text(["errors": [
      ["message": "bad", "file": "x.yaml", "line": 3, "column": 4] as [String: Any], ["message": "worse"],
    ]]))
    #expect(try LegacyJSON.roundTrips(errors))
  }
}
