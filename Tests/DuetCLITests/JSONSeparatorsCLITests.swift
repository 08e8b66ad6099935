import Foundation
import Testing

/// Issue 39, item 9: every `--json` is JSON. Text from a manifest holding
/// U+2028, U+2029, a bidirectional override or DEL comes out as `\uXXXX`
/// escapes (valid JSON, nothing for a terminal to act on) and reads back as
/// the same string, with Python's `json` as the judge.
@Suite("Every --json parses, whatever the manifest's text")
struct JSONSeparatorsCLITests {
  static let odd = "a\u{2028}b\u{2029}c\u{202E}d\u{7F}e"

  @Test func jsonWithLineSeparatorsParses() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - name: a
          sh: "echo '\\u2028x\\u2029y\\u202Ez\\x7F'"
          env: {NOTE: "\\u2028\\u2029\\u202E\\x7F"}
          tags: [t]
      """)
    #expect(try tree.duet("verify").status == 0)
    for command in [["lanes", "--json"], ["verify", "--json", "--lane", "a"], ["verify", "--dry-run", "--json"], ["trace"],
                    ["history", "--json"], ["stats", "--json"]] {
      // The binary, so its console (which escapes for the terminal) writes the text.
      let run = try runBinary(command, in: tree.url)
      let file = tree.url.appendingPathComponent("out.json")
      try Data(run.stdout.utf8).write(to: file)
      let check = try shell("python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding=\"utf-8\"))' out.json", in: tree.url)
      #expect(check.status == 0, "\(command): \(check.output)\n\(run.stdout.prefix(600))")
      #expect(!run.stdout.contains("\\u{"), "\(command)")
    }
    let lanes = try tree.duet("lanes", "--json")
    let object = try JSONSerialization.jsonObject(with: Data(lanes.stdout.utf8)) as? [String: Any]
    let command = ((object?["lanes"] as? [[String: Any]])?.first?["command"] as? String) ?? ""
    #expect(command == "echo '\u{2028}x\u{2029}y\u{202E}z\u{7F}'", "\(command.debugDescription)")
  }
}

/// Issue 39, item 10: text from the environment reaches output escaped.
@Suite("Environment text is escaped where it is shown")
struct EnvironmentTextCLITests {
  /// A `DUET_SKIP` holding a line feed and `::error::` under GitHub Actions
  /// forges no annotation line, and an escape sequence never reaches the terminal.
  @Test func duetSkipCannotForgeLines() throws {
    let tree = try FixtureTree(manifest: """
      version: 1
      lanes:
        - {name: a, sh: "true"}
      """)
    for value in ["zz\n::error::forged", "\u{1B}]0;title\u{07}zz", "a,zz\r::warning::x"] {
      let run = try runBinary(["verify"], in: tree.url, environment: ["DUET_SKIP": value, "GITHUB_ACTIONS": "true"])
      #expect(run.status == 2, "\(value.debugDescription): \(run.stdout)\(run.stderr)")
      let lines = (run.stdout + run.stderr).split(whereSeparator: { $0 == "\n" || $0 == "\r" })
      #expect(!lines.contains { $0.hasPrefix("::error::forged") || $0.hasPrefix("::warning::x") }, "\(run.stderr.debugDescription)")
      #expect(!run.stderr.contains("\u{1B}"), "\(run.stderr.debugDescription)")
    }
  }
}
