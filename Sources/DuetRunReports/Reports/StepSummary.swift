import DuetModel
import DuetSupport
import DuetRun

/// A run as the Markdown of a GitHub step summary (`$GITHUB_STEP_SUMMARY`):
/// the verdict, a table of every lane, then each failed lane's log tail in a
/// collapsed block. Pure, and capped: GitHub refuses a step summary over 1 MiB,
/// so parts that would pass `limit` bytes are left out and the summary says so.
package enum StepSummary {
  /// GitHub's cap on one step's summary.
  static let gitHubLimit = 1_048_576
  /// What duet allows itself, leaving room below GitHub's cap.
  package static let defaultLimit = 1_000_000

  /// The summary, as the bytes appended to the step summary file.
  package static func markdown(_ verdict: RunVerdict, limit: Int = defaultLimit) -> String {
    let allParts = [head(verdict)] + RunText.summaryRows(verdict).map(row) + verdict.unfinished.compactMap(tail)
    var out: Markdown = ""
    var size = 0
    var left = 0
    for (i, part) in allParts.enumerated() {
      let partSize = part.text.utf8.count
      if size + partSize + omittedNote(allParts.count - i).text.utf8.count > limit {
        left = allParts.count - i
        break
      }
      out += part
      size += partSize
    }
    if left > 0 {
      let note = omittedNote(left)
      if size + note.text.utf8.count <= limit { out += note }
    }
    return out.text
  }

  /// The verdict, the flaky lanes, the tracked files the run changed, and the table's header.
  static func head(_ verdict: RunVerdict) -> Markdown {
    let mark: Markdown = verdict.outcome == .pass ? "✅" : "❌"
    var head: [Markdown] = ["## \(mark) \(verdict.lastLine.text)", ""]
    if let flaky = RunText.flakyLine(verdict) { head += ["\(flaky.text)", ""] }
    let changedFiles = verdict.changedTrackedFiles
    if !changedFiles.isEmpty {
      head += ["Tracked files changed by the run (`--strict`): " + changedFiles.map(MarkdownText.codeSpan).joined(separator: ", "), ""]
    }
    head += ["| lane | outcome | time | tries | note |", "| --- | --- | --- | --- | --- |"]
    return head.joined(separator: "\n") + "\n"
  }

  /// A lane's row of the table, each cell escaped.
  static func row(_ cells: [String]) -> Markdown {
    "| " + cells.map { "\($0)" as Markdown }.joined(separator: " | ") + " |\n"
  }

  /// A failed lane's log tail in a collapsed block; nil when it has none.
  static func tail(_ record: LaneVerdict) -> Markdown? {
    var block = RunText.failureBlock(record)
    guard !block.isEmpty else { return nil }
    let heading = block.removeFirst().replacingOccurrences(of: "── ", with: "")
    let body = block.map { String($0.dropFirst(3)) }.joined(separator: "\n")
    return "\n<details><summary>\(heading, in: .html)</summary>\n\n\(MarkdownText.codeBlock(body))\n\n</details>\n"
  }

  static func omittedNote(_ count: Int) -> Markdown {
    "\n_\(count) more part(s) of this summary left out to keep it under GitHub's 1 MiB limit; see the job log._\n"
  }
}
