import Foundation
import DuetCommandLine
import DuetSupport

/// `duet doctor`: what this machine and tree give the lanes, one line per thing
/// looked at and one line per problem; exit 1 when a lane lacks what it needs.
enum DoctorCommand: TreeCommand, JSONCommand {
  static let spec = CommandSpec(
    name: "doctor",
    summary: "check the tree, its manifests and configs, each lane's programs, the history store and the toolchains",
    usage: "duet doctor [--sandbox] [--json] [--root DIR]",
    options: [sandbox.spec, json.spec, root.spec],
    details: "nothing is run but 'swift --version', 'java -version' and 'kotlinc -version' (10 s each at most); nothing is written. With --sandbox, every lane runs in the sandbox as 'duet verify --sandbox --no-cache' runs it, the history off",
    exitCodes: [0: "every lane has what it needs (with --sandbox: passed in the sandbox)", 1: "a problem (listed one per line)",
                2: "a usage error; with --sandbox, no sandbox on this machine (bubblewrap not installed)",
                3: "with --sandbox, a lane's sandbox could not start"],
    examples: ["duet doctor": "what this machine gives each lane, and what is missing",
               "duet doctor --sandbox": "run every lane in the sandbox: which are proven, and what each other reads or writes outside its declaration"]
  )

  static let sandbox = Option<Self, Bool>.flag(
    OptionSpec(name: "--sandbox", value: nil, help: "run every lane in the sandbox and list each lane's verdict (issue 56)"))

  /// `duet doctor`'s command line.
  struct Options {
    var root: String?
    var json: Bool
    var sandbox: Bool
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    Options(root: try line[root], json: try line[json], sandbox: try line[sandbox])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    let request = try DoctorRequest.find(workingDirectory: call.invocation.workingDirectory, root: options.root, environment: call.environment)
    let response = try options.sandbox ? sandboxDoctor(request, duetVersion: duetVersion) : doctor(request)
    return call.console.show(response, json: options.json)
  }
}
