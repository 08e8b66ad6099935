import DuetModel
import DuetSupport

/// A run as the Markdown of a GitHub step summary (`$GITHUB_STEP_SUMMARY`):
/// the verdict, a table of every lane, then each failed lane's log tail in a
/// collapsed block. Pure, and capped: GitHub refuses a step summary over 1 MiB,
/// so parts that would pass `limit` bytes are left out and the summary says so.
package enum StepSummary {
  /// GitHub's cap on one step's summary.
  package static let gitHubLimit = 1_048_576
  /// What duet allows itself, leaving room below GitHub's cap.
  package static let defaultLimit = 1_000_000

  package static func markdown(_ outcome: VerifyOutcome, limit: Int = defaultLimit) -> String {
    let result = outcome.run
    let changedFiles = outcome.changedTrackedFiles
    var head = ["## \(outcome.verdict == .pass ? "✅" : "❌") \(cell(outcome.lastLine.text))", ""]
    if let flaky = RunReport.flakyLine(result) { head += [cell(flaky.text), ""] }
    if !changedFiles.isEmpty {
      head += ["Tracked files changed by the run (`--strict`): " + changedFiles.map { "`\(cell($0))`" }.joined(separator: ", "), ""]
    }
    head += ["| lane | outcome | time | tries | note |", "| --- | --- | --- | --- | --- |"]

    var parts: [String] = [head.joined(separator: "\n") + "\n"]
    let rows = RunReport.summaryRows(result)
    for row in rows {
      parts.append("| " + row.map(cell).joined(separator: " | ") + " |\n")
    }
    var tailParts: [String] = []
    for record in result.unfinished {
      var block = RunReport.failureBlock(record)
      guard !block.isEmpty else { continue }
      let heading = block.removeFirst().replacingOccurrences(of: "── ", with: "")
      let body = ControlText.clean(block.map { String($0.dropFirst(3)) }.joined(separator: "\n"))
      let fence = String(repeating: "`", count: max(3, longestBacktickRun(body) + 1))
      tailParts.append("\n<details><summary>\(html(heading))</summary>\n\n\(fence)text\n\(body)\n\(fence)\n\n</details>\n")
    }

    var out = ""
    var size = 0
    var left = 0
    let allParts = parts + tailParts
    for (i, part) in allParts.enumerated() {
      let partSize = part.utf8.count
      if size + partSize + omittedNote(allParts.count - i).utf8.count > limit {
        left = allParts.count - i
        break
      }
      out += part
      size += partSize
    }
    if left > 0 {
      let note = omittedNote(left)
      if size + note.utf8.count <= limit { out += note }
    }
    return out
  }

  package static func omittedNote(_ count: Int) -> String {
    "\n_\(count) more part(s) of this summary left out to keep it under GitHub's 1 MiB limit; see the job log._\n"
  }

  /// A table cell: one line, `|` escaped, Markdown's HTML kept inert.
  package static func cell(_ value: String) -> String {
    html(ControlText.clean(value)).replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
  }

  /// Markdown's inline HTML kept inert: the summary is Markdown text, so the escaped markup is taken as text here.
  package static func html(_ value: String) -> String {
    HTMLText.escaped(value).text
  }

  package static func longestBacktickRun(_ text: String) -> Int {
    var longest = 0, current = 0
    for character in text {
      if character == "`" { current += 1; longest = max(longest, current) } else { current = 0 }
    }
    return longest
  }
}
