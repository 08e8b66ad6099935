import DuetCommandLine
/// Whether a line of text is a diagnostic: `FILE:LINE:COLUMN: ` at its
/// start, as `Diagnostic.description` writes it. Such a line is printed as it
/// is, so the position starts the line for an editor, a terminal's link
/// detection and a CI log's problem matcher.
enum DiagnosticLine {
  static func startsWithPosition(_ text: String) -> Bool {
    let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count == 4, !parts[0].isEmpty, !parts[0].contains(" "), parts[3].hasPrefix(" ") else { return false }
    return [parts[1], parts[2]].allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
  }
}
