import Foundation
import DuetApp
import DuetSupport

/// `duet doctor`: what this machine and tree give the lanes, one line per thing
/// looked at and one line per problem; exit 1 when a lane lacks what it needs.
enum DoctorCommand: TreeCommand, JSONCommand {
  static let spec = CommandSpec(
    name: "doctor",
    summary: "check the tree, its manifests and configs, each lane's programs, the history store and the toolchains",
    usage: "duet doctor [--json] [--root DIR]",
    options: [json.spec, root.spec],
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

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    let request = try DoctorRequest.find(workingDirectory: arguments.invocation.workingDirectory, root: try arguments[root],
                                         environment: arguments.invocation.environment)
    return console.show(doctor(request), json: try arguments[json])
  }
}
