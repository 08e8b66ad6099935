import DuetCommandLine
import DuetSupport


/// `duet help [COMMAND]`: the overview, or one command's help (the same text as
/// `duet COMMAND --help`).
enum HelpCommand: Command {
  static let spec = CommandSpec(
    name: "help",
    summary: "print the list of commands, or one command's options, exit codes and examples",
    usage: "duet help [COMMAND]",
    options: [],
    positionals: [.commands],
    exitCodes: [0: "printed", 2: "no such command"],
    examples: ["duet help verify": "verify's options, exit codes and examples"]
  )
  static let maxPositionals = 1

  static func run(_ arguments: ParsedArguments<Self>, console: Console) throws -> Int32 {
    guard let name = arguments.positionals.first else {
      console.out(lines: Entrypoint.overview)
      return ExitCode.pass
    }
    let names = Entrypoint.commands.map { $0.spec.name }
    guard let command = Entrypoint.commands.first(where: { $0.spec.name == name }) else {
      throw UsageError(message: "no command '\(name)'\(Suggestion.hint(for: name, in: names)) (commands: \(names.joined(separator: ", ")))", command: "help")
    }
    console.out(lines: command.documentedSpec.help)
    return ExitCode.pass
  }
}
