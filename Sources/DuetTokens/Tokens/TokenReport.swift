import Foundation
import DuetModel
import DuetOutput
import DuetSupport

/// What one `duet design-tokens` run found or did, per file. The CLI and the
/// built-in lane both print `text`, so a lane's log reads as the command would.
package struct TokenReport: Sendable, Equatable {
  package enum Mode: String, Sendable { case write, check }

  enum Status: String, Sendable {
    /// Write mode. `kept`: a file the Duet toolchain's engine wrote whose code
    /// is current, left in the engine's layout (`--rewrite` rewrites it).
    case written, unchanged, removed, kept
    /// Check mode.
    case upToDate, stale, missing, orphaned
    /// Check mode: the path guard would not read the file (a link, a FIFO).
    case refused
  }

  /// The first line where a file on disk and the generated text part ways.
  struct Difference: Sendable, Equatable {
    /// 1-based.
    var line: Int
    /// Nil where that side has ended.
    var onDisk: String?
    var generated: String?
  }

  struct Entry: Sendable, Equatable {
    var path: String
    var status: Status
    var difference: Difference?
    /// True when the file on disk carries the engine's banner and was
    /// compared by code rather than byte for byte.
    var comparedByCode: Bool = false
    /// Why a `refused` file was not read.
    var note: String?
    /// Write mode: the file was written in the Duet toolchain's engine layout
    /// (its target's files are the engine's; `EngineLayout`).
    var engineLayout = false
  }

  var mode: Mode
  var configPath: String
  /// False when the tree has no config: nothing is generated and the run passes.
  var configFound: Bool = true
  var entries: [Entry] = []

  var passed: Bool {
    !entries.contains { [.stale, .missing, .orphaned, .refused].contains($0.status) }
  }

  /// 0 when written or up to date, 1 when `--check` finds drift.
  var exitCode: Int32 { passed ? 0 : 1 }

  func count(_ statuses: Status...) -> Int { entries.filter { statuses.contains($0.status) }.count }

  /// The lines `duet design-tokens` prints, joined, without a final newline:
  /// a path or a line of a file goes in escaped, so it stays on its line.
  var text: TerminalLine {
    var lines: [TerminalLine] = []
    switch mode {
    case .write:
      if !configFound {
        lines.append("duet design-tokens: no \(configPath) in this tree, nothing to generate")
      } else if count(.written, .removed) == 0 {
        lines.append("duet design-tokens: \(count(.unchanged, .kept)) token file(s) up to date, nothing written")
        if count(.kept) > 0 { lines.append(keptLine) }
      } else {
        lines.append("duet design-tokens: wrote \(count(.written)) token file(s):")
        for entry in entries where entry.status == .written { lines.append("  \(entry.path)") }
        for entry in entries where entry.status == .removed {
          lines.append("  removed: \(entry.path) — the config no longer declares it")
        }
        let engine = entries.filter { $0.status == .written && $0.engineLayout }.count
        if engine > 0 { lines.append("\(engine) of them in the Duet toolchain's engine layout (banner and words kept), as the engine wrote them") }
        if count(.kept) > 0 { lines.append(keptLine) }
        lines.append("review and commit the diff (generated token sources are committed build products)")
      }
    case .check:
      if passed {
        let byCode = entries.filter { $0.status == .upToDate && $0.comparedByCode }.count
        let suffix: TerminalLine = configFound
          ? (byCode == 0 ? "" : " (\(byCode) written by the Duet toolchain's engine, compared by code)")
          : " (no \(configPath) in this tree)"
        lines.append("duet design-tokens --check: \(count(.upToDate)) generated token file(s) up to date\(suffix)")
      } else {
        lines.append("duet design-tokens --check: FAIL")
        for entry in entries {
          switch entry.status {
          case .stale:
            guard let difference = entry.difference else {
              lines.append("  stale: \(entry.path) — differs from what the config generates")
              continue
            }
            let how: TerminalLine = entry.comparedByCode ? "its code differs from what the config generates (the engine's file, compared by code)" : "differs from what the config generates"
            lines.append("  stale: \(entry.path) — \(how), from line \(difference.line):")
            lines.append("    on disk:   \(Self.shown(difference.onDisk))")
            lines.append("    generated: \(Self.shown(difference.generated))")
          case .missing:
            lines.append("  missing: \(entry.path)")
          case .orphaned:
            lines.append("  orphaned: \(entry.path) — the config no longer declares it (a target owns this file)")
          case .refused:
            lines.append("  refused: \(entry.path) — \(entry.note ?? "not a regular file in the tree"); not read")
          default:
            continue
          }
        }
        lines.append("regenerate and commit: duet design-tokens")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// What a write says about the engine's files it left alone.
  var keptLine: TerminalLine {
    "left \(count(.kept)) file(s) the Duet toolchain's engine wrote as they are (code current); `duet design-tokens --rewrite` puts them in duet's layout"
  }

  /// A line as the stale report shows it: an empty line or the end of the file said in words.
  static func shown(_ line: String?) -> TerminalLine {
    guard let line else { return "(end of file)" }
    return line.isEmpty ? "(empty line)" : "\(line)"
  }

  /// The same report as JSON, with `schemaVersion`.
  var json: String { ReportJSON.text(TokenReportJSON(self)) }

  /// Config errors as JSON, for `--json` when the run stops with exit 2.
  static func errorJSON(_ diagnostics: [Diagnostic], mode: Mode, configPath: String) -> String {
    ReportJSON.text(TokenReportJSON(errors: diagnostics, mode: mode, configPath: configPath))
  }
}

/// `duet design-tokens --json`: a report (with `configFound` and `files`) or,
/// when the config cannot be read, its errors (with `errors`, exit code 2).
struct TokenReportJSON: Codable, Sendable, Equatable {
  /// A file; `comparedByCode` only when true, `note` and `firstDifference` only when known.
  struct File: Codable, Sendable, Equatable {
    var path: String
    var status: String
    var comparedByCode: Bool?
    var note: String?
    var firstDifference: Difference?
  }

  /// Where the file on disk and the generated text part; null where a side has ended.
  struct Difference: Codable, Sendable, Equatable {
    var line: Int
    @Nullable var onDisk: String?
    @Nullable var generated: String?
  }

  var command = "design-tokens"
  var mode: String
  var config: String
  var configFound: Bool?
  var passed: Bool
  var exitCode: Int
  var files: [File]?
  var errors: [DiagnosticJSON]?

  init(_ report: TokenReport) {
    mode = report.mode.rawValue
    config = report.configPath
    configFound = report.configFound
    passed = report.passed
    exitCode = Int(report.exitCode)
    files = report.entries.map { entry in
      File(path: entry.path, status: entry.status.rawValue, comparedByCode: entry.comparedByCode ? true : nil, note: entry.note,
           firstDifference: entry.difference.map { Difference(line: $0.line, onDisk: $0.onDisk, generated: $0.generated) })
    }
  }

  init(errors diagnostics: [Diagnostic], mode: TokenReport.Mode, configPath: String) {
    self.mode = mode.rawValue
    config = configPath
    passed = false
    exitCode = 2
    errors = diagnostics.map(DiagnosticJSON.init)
  }
}
