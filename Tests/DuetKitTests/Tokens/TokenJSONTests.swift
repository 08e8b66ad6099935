import Foundation
import Testing
@testable import DuetTokens
@testable import DuetSupport

/// `design-tokens --json` and `theme-test --json` as values: the bytes the
/// dictionaries printed, and a round trip.
struct TokenJSONTests {
  static let diagnostics = [
    Diagnostic("unknown key 'x'", at: SourceLocation(file: "parity/design-tokens.yaml", line: 2, column: 1)),
    Diagnostic("no config"),
  ]

  static func legacyErrors(_ diagnostics: [Diagnostic]) -> [[String: Any]] {
    diagnostics.map { item in
      var object: [String: Any] = ["message": item.message]
      if let location = item.location { object["file"] = location.file; object["line"] = location.line; object["column"] = location.column }
      return object
    }
  }

  @Test func tokenReportBytesAsBefore() throws {
    let report = TokenReport(mode: .check, configPath: "parity/design-tokens.yaml", entries: [
      .init(path: "a/Colors.swift", status: .upToDate, comparedByCode: true),
      .init(path: "a/Type.kt", status: .stale, difference: .init(line: 3, onDisk: "", generated: nil)),
      .init(path: "a/Link", status: .refused, note: "a symbolic link"),
      .init(path: "a/Gone.swift", status: .missing),
    ])
    let files: [[String: Any]] = report.entries.map { entry in
      var object: [String: Any] = ["path": entry.path, "status": entry.status.rawValue]
      if entry.comparedByCode { object["comparedByCode"] = true }
      if let note = entry.note { object["note"] = note }
      if let difference = entry.difference {
        object["firstDifference"] = ["line": difference.line, "onDisk": difference.onDisk ?? NSNull(), "generated": difference.generated ?? NSNull()] as [String: Any]
      }
      return object
    }
    let legacy: [String: Any] = [
      "command": "design-tokens", "mode": "check", "config": report.configPath, "configFound": true, "passed": false, "exitCode": 1, "files": files,
    ]
    #expect(report.json == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(TokenReportJSON(report)))
  }

  @Test func tokenErrorsBytesAsBefore() throws {
    let legacy: [String: Any] = [
      "command": "design-tokens", "mode": "write", "config": "c.yaml", "passed": false, "exitCode": 2, "errors": Self.legacyErrors(Self.diagnostics),
    ]
    #expect(TokenReport.errorJSON(Self.diagnostics, mode: .write, configPath: "c.yaml") == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(TokenReportJSON(errors: Self.diagnostics, mode: .write, configPath: "c.yaml")))
  }

  @Test func themeTestBytesAsBefore() throws {
    let body = ContrastPairResult(
      theme: "main", level: .aa, appearance: .light, label: "ink", surface: "page", labelSource: "color.ink", surfaceSource: "color.page",
      font: nil, largeText: false, labelColor: srgb(0x777777), surfaceColor: srgb(0xFFFFFF), ratio: 4.478923847, required: 4.5)
    var large = body
    large.font = "title"
    large.largeText = true
    large.required = 3
    let report = ThemeTestReport(configPath: "parity/design-tokens.yaml", results: [body, large])
    func object(_ result: ContrastPairResult) -> [String: Any] {
      var object: [String: Any] = [
        "theme": result.theme, "level": result.level.rawValue, "appearance": result.appearance.rawValue,
        "label": result.label, "surface": result.surface, "labelSource": result.labelSource,
        "surfaceSource": result.surfaceSource, "largeText": result.largeText, "labelColor": result.labelColor.hex,
        "surfaceColor": result.surfaceColor.hex, "ratio": result.ratio, "ratioText": ratioText(result.ratio),
        "required": result.required, "passed": result.passes,
      ]
      if let font = result.font { object["font"] = font }
      return object
    }
    var legacy: [String: Any] = [
      "command": "theme-test", "config": report.configPath, "passed": report.passed, "exitCode": Int(report.exitCode),
      "pairs": report.results.map(object), "shortfalls": report.shortfalls.count,
    ]
    if let worst = report.worst { legacy["worst"] = object(worst) }
    #expect(report.json == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(ThemeTestJSON(report)))
  }

  @Test func themeTestErrorsBytesAsBefore() throws {
    let legacy: [String: Any] = ["command": "theme-test", "config": "c.yaml", "passed": false, "exitCode": 2, "errors": Self.legacyErrors(Self.diagnostics)]
    #expect(ThemeTestReport.errorJSON(Self.diagnostics, configPath: "c.yaml") == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(ThemeTestJSON(errors: Self.diagnostics, configPath: "c.yaml")))
  }

  /// `duet contrast --json`: a translucent foreground over a tint, the bytes
  /// the dictionary printed before it was a value.
  @Test func contrastBytesAsBefore() throws {
    let query = ContrastQuery(try #require(TypedColor("#1A1A1A/0.6")), on: try #require(TypedColor("#EEF")))
    let legacy: [String: Any] = [
      "command": "contrast", "foreground": query.foreground.hex, "background": query.background.hex, "ratio": query.ratio,
      "ratioText": ratioText(query.ratio),
      "levels": query.checks.map { ["level": $0.level.rawValue, "largeText": $0.largeText, "required": $0.required, "passed": $0.passes] },
    ]
    #expect(query.json == LegacyJSON.text(legacy))
    #expect(try LegacyJSON.roundTrips(ContrastJSON(query)))
  }
}
