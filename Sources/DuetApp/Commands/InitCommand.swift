import Foundation
import DuetCommandLine
import DuetSupport

/// `duet init`: survey an existing tree and write a commented `lanes/manifest.yaml`
/// whose lanes cover every module, saying what it found and why each lane exists.
enum InitCommand: Command {
  static let spec = CommandSpec(
    name: "init",
    summary: "survey the tree and write lanes/manifest.yaml: token, theme and mock checks, one lane per Gradle module and Swift package",
    usage: "duet init [--force] [--root DIR]",
    options: [force.spec, root.spec],
    exitCodes: [0: "written", 1: "lanes/manifest.yaml exists (nothing written; --force replaces it)",
                2: "parity/manifest.yaml has errors, or the file cannot be written"],
    examples: ["duet init": "survey this tree and write lanes/manifest.yaml",
               "duet init --force": "write it again after adding a module (its modules: and mocks: are kept)"]
  )

  static let force = Option<Self, Bool>.flag(
    OptionSpec(name: "--force", value: nil, help: "replace an existing lanes/manifest.yaml (its modules: and mocks: are kept)"))
  /// Init's own `--root`: it may start a tree, so a `.git` folder or the working directory will do.
  static let root = Option<Self, String?>.text(
    OptionSpec(name: "--root", value: "DIR", help: "the tree root (default: the nearest folder up with lanes/manifest.yaml, parity/manifest.yaml or .git, else the working directory)"))

  /// `duet init`'s command line.
  struct Options {
    var root: String?
    var force: Bool
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    Options(root: try line[root], force: try line[force])
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    var request = try InitRequest.find(workingDirectory: call.invocation.workingDirectory, root: options.root)
    request.force = options.force
    return call.console.show(try initTree(request))
  }
}
