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

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    guard let shell = arguments.positionals.first else {
      throw UsageError(message: "completion needs a shell: bash, zsh or fish", command: "completion")
    }
    let commands = Entrypoint.documented
    switch shell {
    case "bash": console.raw(BashCompletion.script(commands, version: duetVersion))
    case "zsh": console.raw(ZshCompletion.script(commands, version: duetVersion))
    case "fish": console.raw(FishCompletion.script(commands, version: duetVersion))
    default:
      throw UsageError(message: "unknown shell '\(shell)'\(Suggestion.hint(for: shell, in: shells)) (completion knows bash, zsh and fish)", command: "completion")
    }
    return ExitCode.pass
  }
}
