import Foundation
import DuetApp
import DuetDoctor
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetOutput
import DuetSupport

/// `duet doctor`: what this machine and tree give the lanes, one line per thing
/// looked at and one line per problem; exit 1 when a lane lacks what it needs.
enum DoctorCommand: Command {
  static let spec = CommandSpec(
    name: "doctor",
    summary: "check the tree, its manifests and configs, each lane's programs, the history store and the toolchains",
    usage: "duet doctor [--json] [--root DIR]",
    options: [CommandSpec.jsonOption, CommandSpec.rootOption],
    details: "nothing is run but 'swift --version', 'java -version' and 'kotlinc -version' (10 s each at most); nothing is written",
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "every lane has what it needs"),
      ExitCodeDoc(code: 1, meaning: "a problem (listed one per line)"),
      ExitCodeDoc(code: 2, meaning: "a usage error"),
    ],
    examples: [
      HelpExample(command: "duet doctor", what: "what this machine gives each lane, and what is missing"),
      HelpExample(command: "duet doctor --json", what: "the same as JSON: every line as topic and text, the problems, and pass"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let root: URL
    let foundBy: String?
    do {
      root = try treeRoot(arguments)
      foundBy = arguments.value("--root") != nil
        ? "--root"
        : TreeManifest.treeMarkers.first { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) } ?? "--root"
    } catch is TreeNotFound {
      // No tree is a problem to report beside the toolchains, not a reason to print nothing.
      root = arguments.invocation.workingDirectory
      foundBy = nil
    }
    let options = Doctor.Options(root: root, foundBy: foundBy, environment: arguments.invocation.environment, builtins: BuiltinSet.standard.vocabulary)
    let report = Doctor.run(options)
    if arguments.flag("--json") {
      console.out(report.json)
      return report.exitCode
    }
    console.out("duet doctor: \(report.root)")
    for line in HangingList.lines(report.lines.map { ($0.topic, $0.text) }, maxWidth: console.width) { console.out(line) }
    console.out(console.paint(report.verdict, report.problems.isEmpty ? "32;1" : "31;1"))
    // One line per problem, never wrapped, so a CI log can be searched for them.
    for problem in report.problems { console.out("  " + ControlText.shown(problem)) }
    return report.exitCode
  }
}
