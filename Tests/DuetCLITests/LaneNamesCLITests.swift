import Foundation
import Testing
@testable import DuetApp

/// Issue 50, item 7: one place resolves a lane name for every command that
/// takes one; a typo is exit 2 with the nearest lane, never an empty answer.
@Suite("Lane names are resolved in one place, end to end")
struct LaneNamesCLITests {
  @Test func aMisspeltLaneIsAUsageErrorEverywhere() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: unit, sh: echo ok}\n")
    #expect(try tree.duet("verify").status == 0)
    for arguments in [["flaky", "--tests", "--lane", "unti"], ["stats", "--tests", "--lane", "unti"], ["history", "--lane", "unti"],
                      ["logs", "unti"], ["verify", "--lane", "unti"]] {
      let run = try tree.duet(arguments: arguments)
      #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
      #expect(run.stderr.contains("did you mean 'unit'?"), "\(arguments): \(run.stderr)")
    }
    #expect(try tree.duet("flaky", "--tests", "--lane", "unit").status == 0)
    #expect(try tree.duet("stats", "--tests", "--lane", "unit").status == 0)
  }

  /// Issue 54, item 11: every command line that names a lane, found from the
  /// commands' specs (an option whose value is a lane, a LANE word), refuses an
  /// unknown one in the same words and with exit 2, before the command runs:
  /// no other option is needed to reach the check. A new command taking a lane
  /// is covered without being listed here.
  @Test func everyCommandRefusesAnUnknownLaneTheSameWay() throws {
    let tree = try FixtureTree(manifest: "version: 1\nlanes:\n  - {name: kotlin, sh: echo ok}\n  - {name: swift, sh: echo ok}\n")
    var lines: [(arguments: [String], origin: String?, orHistory: Bool)] = []
    for command in Entrypoint.commands {
      let spec = command.spec
      for option in spec.options where option.completion == .lanes {
        lines.append(([spec.name, option.name, "kotln"], option.name, command.readsRecordedLanes))
      }
      if spec.positionals.first == .lanes { lines.append(([spec.name, "kotln"], nil, command.readsRecordedLanes)) }
    }
    let covered = Set(lines.map { $0.arguments[0] })
    #expect(covered == ["verify", "history", "logs", "flaky", "deflake", "explain", "stats", "quarantine"], "\(covered.sorted())")
    for line in lines {
      let run = try tree.duet(arguments: line.arguments)
      let expected = "duet \(line.arguments[0]): error: " + (line.origin.map { "\($0): " } ?? "")
        + "no lane 'kotln' in lanes/manifest.yaml\(line.orHistory ? " or the history" : ""); did you mean 'kotlin'? (its lanes: kotlin, swift)\n"
        + "run 'duet \(line.arguments[0]) --help' for usage\n"
      #expect(run.status == 2, "\(line.arguments): \(run.stdout)\(run.stderr)")
      #expect(run.stderr == expected, "\(line.arguments)")
      #expect(run.stdout.isEmpty, "\(line.arguments): \(run.stdout)")
    }
  }
}
