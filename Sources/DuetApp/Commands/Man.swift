import DuetCommandLine
import DuetSupport


/// `duet man`: the man page (roff), from the same specs as `--help`; `make install`
/// writes it to share/man/man1/duet.1.
enum ManCommand: Command {
  static let spec = CommandSpec(
    name: "man",
    summary: "print duet's man page (roff), generated from the same specs as --help",
    usage: "duet man",
    options: [],
    exitCodes: [0: "printed"],
    examples: ["duet man > duet.1 && man ./duet.1": "read the man page without installing it"]
  )

  /// `duet man` takes no option of its own.
  struct Options {}

  static func options(_ line: ParsedArguments<Self>) throws -> Options { Options() }

  static func run(_ options: Options, in call: CommandCall) throws -> Int32 {
    call.console.raw(ManPage.render(Entrypoint.documented, version: duetVersion))
    return ExitCode.pass
  }
}
