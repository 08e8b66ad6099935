import Foundation
import DuetModel
import DuetOutput
import DuetSupport

/// What `duet theme-test` found: every pair's result, summarised per theme and
/// appearance, with every shortfall and the worst pair.
package struct ThemeTestReport: Sendable {
  var configPath: String
  var results: [ContrastPairResult]

  var shortfalls: [ContrastPairResult] { results.filter { !$0.passes } }
  var passed: Bool { shortfalls.isEmpty }
  var exitCode: Int32 { passed ? 0 : 1 }
  var worst: ContrastPairResult? { ThemeContrast.worst(results) }

  /// Theme and appearance, in the order tested, each with its results.
  var groups: [(theme: String, level: ContrastLevel, appearance: Appearance, results: [ContrastPairResult])] {
    var groups: [(theme: String, level: ContrastLevel, appearance: Appearance, results: [ContrastPairResult])] = []
    for result in results {
      if let last = groups.last, last.theme == result.theme, last.appearance == result.appearance {
        groups[groups.count - 1].results.append(result)
      } else {
        groups.append((result.theme, result.level, result.appearance, [result]))
      }
    }
    return groups
  }

  /// A line per theme and appearance with its worst pair, then every
  /// shortfall, then `duet theme-test: PASS (...)` or `FAIL (...)`.
  var text: TerminalLine {
    var lines: [TerminalLine] = []
    let perGroup = groups.first?.results.count ?? 0
    lines.append("duet theme-test: \(configPath), \(perGroup) pair(s) per theme and appearance")
    let rows: [[TerminalLine]] = groups.compactMap { group in
      guard let worst = ThemeContrast.worst(group.results) else { return nil }
      let short = group.results.filter { !$0.passes }.count
      return [
        "\(group.theme)", "\(group.appearance.rawValue)", "\(group.level.rawValue)",
        short == 0 ? "ok" : "\(short) short",
        "worst \(ratioText(worst.ratio)) \(worst.pairName)" + (worst.largeText ? " (large text)" : ""),
      ]
    }
    lines += TextTable(header: nil, rows: rows).lines(maxWidth: 98).map { "  " + $0 }
    lines += shortfalls.map(\.shortfallLine)
    lines.append(summaryLine)
    return lines.joined(separator: "\n")
  }

  /// The verdict, with the worst pair named as theme and appearance place it.
  var summaryLine: TerminalLine {
    guard let worst else { return "duet theme-test: PASS (0 pairs)" }
    let worstText: TerminalLine = "worst \(ratioText(worst.ratio)) \(worst.pairName), \(worst.appearance.rawValue), \(worst.theme)"
    if passed { return "duet theme-test: PASS (\(results.count) pairs, \(worstText))" }
    return "duet theme-test: FAIL (\(shortfalls.count) of \(results.count) pairs short, \(worstText))"
  }

  /// Every pair, unrounded, for tools.
  var json: String { ReportJSON.text(ThemeTestJSON(self)) }

  /// `--json` for a config that could not be read.
  static func errorJSON(_ diagnostics: [Diagnostic], configPath: String) -> String {
    ReportJSON.text(ThemeTestJSON(errors: diagnostics, configPath: configPath))
  }
}

/// `duet theme-test --json`: every pair and the worst, or (exit code 2) the
/// errors of a config that could not be read.
struct ThemeTestJSON: Codable, Sendable, Equatable {
  /// One pair's result; `font` only when the pair names one.
  struct Pair: Codable, Sendable, Equatable {
    var theme: String
    var level: String
    var appearance: String
    var label: String
    var surface: String
    var labelSource: String
    var surfaceSource: String
    var largeText: Bool
    var labelColor: String
    var surfaceColor: String
    var ratio: Double
    var ratioText: String
    var required: Double
    var passed: Bool
    var font: String?

    init(_ result: ContrastPairResult) {
      theme = result.theme
      level = result.level.rawValue
      appearance = result.appearance.rawValue
      label = result.label
      surface = result.surface
      labelSource = result.labelSource
      surfaceSource = result.surfaceSource
      largeText = result.largeText
      labelColor = result.labelColor.hex
      surfaceColor = result.surfaceColor.hex
      ratio = result.ratio
      ratioText = DuetTokens.ratioText(result.ratio)
      required = result.required
      passed = result.passes
      font = result.font
    }
  }

  var command = "theme-test"
  var config: String
  var passed: Bool
  var exitCode: Int
  var pairs: [Pair]?
  var shortfalls: Int?
  var worst: Pair?
  var errors: [DiagnosticJSON]?

  init(_ report: ThemeTestReport) {
    config = report.configPath
    passed = report.passed
    exitCode = Int(report.exitCode)
    pairs = report.results.map(Pair.init)
    shortfalls = report.shortfalls.count
    worst = report.worst.map(Pair.init)
  }

  init(errors diagnostics: [Diagnostic], configPath: String) {
    config = configPath
    passed = false
    exitCode = 2
    errors = diagnostics.map(DiagnosticJSON.init)
  }
}
