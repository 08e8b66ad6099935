import Foundation
import DuetModel
import DuetOutput
import DuetSupport

/// What `duet theme-test` found: every pair's result, summarised per theme and
/// appearance, with every shortfall and the worst pair.
package struct ThemeTestReport: Sendable {
  package var configPath: String
  package var results: [ContrastPairResult]

  package init(configPath: String, results: [ContrastPairResult]) {
    self.configPath = configPath
    self.results = results
  }

  package var shortfalls: [ContrastPairResult] { results.filter { !$0.passes } }
  package var passed: Bool { shortfalls.isEmpty }
  package var exitCode: Int32 { passed ? 0 : 1 }
  package var worst: ContrastPairResult? { ThemeContrast.worst(results) }

  /// Theme and appearance, in the order tested, each with its results.
  package var groups: [(theme: String, level: ContrastLevel, appearance: Appearance, results: [ContrastPairResult])] {
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
  package var text: TerminalLine {
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
  package var summaryLine: TerminalLine {
    guard let worst else { return "duet theme-test: PASS (0 pairs)" }
    let worstText: TerminalLine = "worst \(ratioText(worst.ratio)) \(worst.pairName), \(worst.appearance.rawValue), \(worst.theme)"
    if passed { return "duet theme-test: PASS (\(results.count) pairs, \(worstText))" }
    return "duet theme-test: FAIL (\(shortfalls.count) of \(results.count) pairs short, \(worstText))"
  }

  /// Every pair, unrounded, for tools.
  package var json: String { ReportJSON.text(ThemeTestJSON(self)) }

  /// `--json` for a config that could not be read.
  package static func errorJSON(_ diagnostics: [Diagnostic], configPath: String) -> String {
    ReportJSON.text(ThemeTestJSON(errors: diagnostics, configPath: configPath))
  }
}

/// `duet theme-test --json`: every pair and the worst, or (exit code 2) the
/// errors of a config that could not be read.
struct ThemeTestJSON: Codable, Sendable, Equatable {
  /// One pair's result; `font` only when the pair names one.
  package struct Pair: Codable, Sendable, Equatable {
    package var theme: String
    package var level: String
    package var appearance: String
    package var label: String
    package var surface: String
    package var labelSource: String
    package var surfaceSource: String
    package var largeText: Bool
    package var labelColor: String
    package var surfaceColor: String
    package var ratio: Double
    package var ratioText: String
    package var required: Double
    package var passed: Bool
    package var font: String?

    package init(_ result: ContrastPairResult) {
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

  package var command = "theme-test"
  package var config: String
  package var passed: Bool
  package var exitCode: Int
  package var pairs: [Pair]?
  package var shortfalls: Int?
  package var worst: Pair?
  package var errors: [DiagnosticJSON]?

  package init(_ report: ThemeTestReport) {
    config = report.configPath
    passed = report.passed
    exitCode = Int(report.exitCode)
    pairs = report.results.map(Pair.init)
    shortfalls = report.shortfalls.count
    worst = report.worst.map(Pair.init)
  }

  package init(errors diagnostics: [Diagnostic], configPath: String) {
    config = configPath
    passed = false
    exitCode = 2
    errors = diagnostics.map(DiagnosticJSON.init)
  }
}
