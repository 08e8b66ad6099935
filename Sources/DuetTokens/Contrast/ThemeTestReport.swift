import Foundation
import DuetModel
import DuetSupport

/// What `duet theme-test` found: every pair's result, summarised per theme and
/// appearance, with every shortfall and the worst pair.
public struct ThemeTestReport: Sendable {
  public var configPath: String
  public var results: [ContrastPairResult]

  public init(configPath: String, results: [ContrastPairResult]) {
    self.configPath = configPath
    self.results = results
  }

  public var shortfalls: [ContrastPairResult] { results.filter { !$0.passes } }
  public var passed: Bool { shortfalls.isEmpty }
  public var exitCode: Int32 { passed ? 0 : 1 }
  public var worst: ContrastPairResult? { ThemeContrast.worst(results) }

  /// Theme and appearance, in the order tested, each with its results.
  public var groups: [(theme: String, level: ContrastLevel, appearance: Appearance, results: [ContrastPairResult])] {
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
  public var text: String {
    var lines: [String] = []
    let perGroup = groups.first?.results.count ?? 0
    lines.append("duet theme-test: \(configPath), \(perGroup) pair(s) per theme and appearance")
    let rows: [[String]] = groups.compactMap { group in
      guard let worst = ThemeContrast.worst(group.results) else { return nil }
      let short = group.results.filter { !$0.passes }.count
      return [
        group.theme, group.appearance.rawValue, group.level.rawValue,
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
  public var summaryLine: String {
    guard let worst else { return "duet theme-test: PASS (0 pairs)" }
    let worstText = "worst \(ratioText(worst.ratio)) \(worst.pairName), \(worst.appearance.rawValue), \(worst.theme)"
    if passed { return "duet theme-test: PASS (\(results.count) pairs, \(worstText))" }
    return "duet theme-test: FAIL (\(shortfalls.count) of \(results.count) pairs short, \(worstText))"
  }

  /// Every pair, unrounded, for tools.
  public var json: String {
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
    var top: [String: Any] = [
      "command": "theme-test", "config": configPath, "passed": passed, "exitCode": Int(exitCode),
      "pairs": results.map(object), "shortfalls": shortfalls.count,
    ]
    if let worst { top["worst"] = object(worst) }
    return TokenJSON.text(top)
  }

  /// `--json` for a config that could not be read.
  public static func errorJSON(_ diagnostics: [Diagnostic], configPath: String) -> String {
    return TokenJSON.text(["command": "theme-test", "config": configPath, "passed": false, "exitCode": 2, "errors": TokenJSON.errors(diagnostics)])
  }
}
