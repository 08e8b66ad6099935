import Foundation
import DuetSupport

/// A newcomer's most common manifest mistake: a shell command written as a plain
/// YAML scalar (`sh: grep -q x f || echo "no: x"`), where YAML reads `: `, ` #`
/// or a leading `[`, `{`, `*`, `&`, `!`, `%`, `@` or `` ` `` as syntax and libyaml's
/// message ("mapping values are not allowed in this context") says nothing of
/// quoting. When a YAML error sits on, or just after, a line with an unquoted
/// `sh:` value, the message gets a hint saying how to write it.
enum ShellValueHint {
  /// `diagnostics` with the hint appended to each that points at such a line.
  static func annotate(_ diagnostics: [Diagnostic], text: String) -> [Diagnostic] {
    let lines = text.components(separatedBy: "\n")
    return diagnostics.map { diagnostic in
      guard let line = diagnostic.location?.line else { return diagnostic }
      for candidate in [line, line - 1] where candidate >= 1 && candidate <= lines.count {
        if unquotedShellValue(lines[candidate - 1]) {
          var hinted = diagnostic
          hinted.message += "; the sh: value on line \(candidate) is not quoted, and YAML reads ': ', ' #' and a leading [ { * & ! % @ ` in it as syntax: put the command in single quotes (sh: 'echo a: b', any ' inside doubled), or write it as a block (sh: |, then the command on the next line, indented)"
          return hinted
        }
      }
      return diagnostic
    }
  }

  /// Whether `line` holds `sh:` (block or flow style) followed by a plain, unquoted value.
  static func unquotedShellValue(_ line: String) -> Bool {
    guard let match = line.range(of: #"(^|[\s{,-])sh:[ \t]+"#, options: .regularExpression) else { return false }
    guard let first = line[match.upperBound...].first else { return false }
    return !"\"'|>".contains(first)
  }
}
