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

  /// `duet help`'s command line: the command whose help to print, one duet has; nil for the overview.
  struct Options {
    var command: (any Command.Type)?
  }

  static func options(_ line: ParsedArguments<Self>) throws -> Options {
    guard let name = line.positionals.first else { return Options() }
    let names = Entrypoint.commands.map { $0.spec.name }
    guard let command = Entrypoint.commands.first(where: { $0.spec.name == name }) else {
      throw UsageError(message: "no command '\(name)'\(Suggestion.hint(for: name, in: names)) (commands: \(names.joined(separator: ", ")))", command: "help")
    }
    return Options(command: command)
  }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.out(lines: options.command?.documentedSpec.help ?? Entrypoint.overview)
    return ExitCode.pass
  }
}
