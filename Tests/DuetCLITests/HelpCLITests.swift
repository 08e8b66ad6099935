@testable import DuetFuzzSupport
import Foundation
import Testing

@Suite("duet help, --help, --version and the man page (the command line, in-process)")
struct HelpCLITests {
  /// Every command `duet --help` lists, read from its output.
  func commandNames() throws -> [String] {
    let tree = try FixtureTree()
    let overview = try tree.duet("--help")
    #expect(overview.status == 0)
    let lines = overview.lines.drop { $0 != "commands:" }.dropFirst().prefix { !$0.isEmpty }
    return lines.compactMap { $0.split(separator: " ").first.map(String.init) }
  }

  /// `duet help COMMAND` prints exactly what `duet COMMAND --help` does, and every
  /// command's help lists its exit codes and ends with an example command line.
  @Test func helpCommandMatchesDashHelpAndEveryHelpHasExitCodesAndExamples() throws {
    let tree = try FixtureTree()
    let names = try commandNames()
    #expect(names.count >= 18)
    for name in ["verify", "lanes", "history", "logs", "flaky", "stats", "graph", "completion", "schema", "man", "help"] {
      #expect(names.contains(name), "\(name) missing from duet --help")
    }
    for name in names {
      let viaHelp = try tree.duet("help", name)
      let viaFlag = try tree.duet(name, "--help")
      #expect(viaHelp.status == 0 && viaFlag.status == 0, "\(name)")
      #expect(viaHelp.stdout == viaFlag.stdout, "\(name)")
      let text = viaFlag.stdout
      #expect(text.hasPrefix("usage: duet \(name)"), "\(name)")
      // Issue 53, item 5: the global option is listed with every command.
      #expect(text.contains("\n  --color WHEN  ") || text.contains("\n  --color WHEN "), "\(name)'s help lacks --color")
      #expect(text.contains("\nexit codes:\n  0  "), "\(name) lists no exit codes")
      let examples = try #require(text.components(separatedBy: "\nexamples:\n").last, "\(name) has no examples")
      let commands = examples.split(separator: "\n").filter { $0.hasPrefix("  duet ") || $0.hasPrefix("  source ") }
      #expect((1...2).contains(commands.count), "\(name): \(commands.count) example(s)")
      #expect(text.hasSuffix(String(commands.last ?? "") + "\n"), "\(name)'s help does not end with an example")
    }
  }

  /// `duet help` alone is the overview; an unknown command is a usage error naming the nearest.
  @Test func helpWithoutOrWithAnUnknownCommand() throws {
    let tree = try FixtureTree()
    let overview = try tree.duet("help")
    #expect(overview.status == 0)
    #expect(overview.stdout == (try tree.duet("--help")).stdout)
    let typo = try tree.duet("help", "verfy")
    #expect(typo.status == 2)
    #expect(typo.stderr.hasPrefix("duet help: error: no command 'verfy'; did you mean 'verify'?"))
  }

  /// A plain `swift build` (the binary under test) names the version and says it does not know its commit.
  @Test func versionNamesTheCommit() throws {
    let run = try FixtureTree().duet("--version")
    #expect(run.status == 0)
    #expect(run.stdout.range(of: #"^duet [0-9]+\.[0-9]+\.[0-9]+ \((unknown commit|commit [0-9a-f]{7,40}(-dirty)?)\)\n$"#, options: .regularExpression) != nil, "\(run.stdout)")
  }

  /// The man page has a section per command with its options, exit codes and
  /// examples, escapes what roff would eat, and formats without a warning in groff (missing, the test fails).
  @Test func manPageFromTheSpecs() throws {
    let tree = try FixtureTree()
    let run = try tree.duet("man")
    #expect(run.status == 0)
    let page = run.stdout
    #expect(page.contains(".TH DUET 1 "))
    for name in try commandNames() {
      #expect(page.contains(".SS duet \(name.replacingOccurrences(of: "-", with: "\\-"))\n"), "\(name)")
    }
    #expect(page.contains(".B \\-\\-lane \\fINAME\\fR"))
    #expect(page.contains("Exit codes:") && page.contains("Examples:"))
    for line in page.split(separator: "\n") where !line.hasPrefix(".") {
      #expect(!line.hasPrefix("'"), "\(line)")
    }
    try tree.write("duet.1", page)
    guard let groff = TestTools.find("groff") else {
      Issue.record(Comment(rawValue: TestTools.missing("groff", for: "checking the man page")))
      return
    }
    let result = try shell("\(groff) -man -Tutf8 -ww -z duet.1", in: tree.url)
    #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
  }
}

/// The man page's ENVIRONMENT section and docs/manifest.md's table of variables.
@Suite("the man page lists every environment variable docs/manifest.md documents")
struct ManPageEnvironmentTests {
  /// Every variable in the first column of docs/manifest.md's "Environment
  /// variables" table has an entry in the man page's ENVIRONMENT section, and
  /// the section has no other (it listed 3 of them before).
  @Test func everyDocumentedVariable() throws {
    let page = try String(contentsOf: InstallCLITests.repository.appendingPathComponent("docs/manifest.md"), encoding: .utf8)
    let section = try #require(page.components(separatedBy: "## Environment variables").dropFirst().first)
    let table = section.split(separator: "\n").prefix { !$0.hasPrefix("## ") }.filter { $0.hasPrefix("| `") }
    let documented = Set(table.flatMap { row in
      row.split(separator: "|")[0].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
    })
    #expect(documented.count >= 15, "\(documented)")
    let man = try FixtureTree().duet("man").stdout
    let environment = try #require(man.components(separatedBy: ".SH ENVIRONMENT\n").dropFirst().first?.components(separatedBy: ".SH ").first)
    let listed = Set(environment.split(separator: "\n").filter { $0.hasPrefix(".B ") }.flatMap { line in
      line.dropFirst(3).replacingOccurrences(of: "\\_", with: "_").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    })
    #expect(listed == documented, "only documented: \(documented.subtracting(listed).sorted()); only in the man page: \(listed.subtracting(documented).sorted())")
  }
}
