import DuetCommandLine
import DuetSupport


/// `duet completion bash|zsh|fish`: the shell's completion script, generated from
/// the command specs; lane names are completed from the tree's manifest.
enum CompletionCommand: Command {
  static let spec = CommandSpec(
    name: "completion",
    summary: "print the bash, zsh or fish completion script (lane names come from the manifest)",
    usage: "duet completion bash|zsh|fish",
    options: [],
    positionals: [.words(["bash", "zsh", "fish"])],
    exitCodes: [0: "printed", 2: "no shell, or one duet does not know"],
    examples: ["source <(duet completion bash)": "completions in this bash session (add it to ~/.bashrc to keep them)",
               "duet completion zsh > \"${fpath[1]}/_duet\"": "install the zsh completion (make install does this for you)"]
  )
  static let maxPositionals = 1
  static let shells = ["bash", "zsh", "fish"]

  /// `duet completion`'s command line: the shell, one duet knows.
  struct Options {
    var shell: String
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    guard let shell = line.positionals.first else {
      throw UsageError(message: "completion needs a shell: bash, zsh or fish", command: "completion")
    }
    guard shells.contains(shell) else {
      throw UsageError(message: "unknown shell '\(shell)'\(Suggestion.hint(for: shell, in: shells)) (completion knows bash, zsh and fish)", command: "completion")
    }
    return Options(shell: shell)
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    let commands = Entrypoint.documented
    switch options.shell {
    case "bash": call.console.raw(BashCompletion.script(commands, version: duetVersion))
    case "zsh": call.console.raw(ZshCompletion.script(commands, version: duetVersion))
    default: call.console.raw(FishCompletion.script(commands, version: duetVersion))
    }
    return ExitCode.pass
  }
}
