import Foundation
import DuetCommandLine
import DuetSupport

/// Turns a command line into a subcommand call and every error into text and an exit code.
package enum Entrypoint {
  /// Every subcommand, in the order `duet --help` lists them.
  static var commands: [any Command.Type] {
    [VerifyCommand.self, HookCommand.self, LanesCommand.self, InitCommand.self, DoctorCommand.self, DesignTokensCommand.self, ThemeTestCommand.self, ContrastCommand.self, MocksCommand.self, HistoryCommand.self, CacheCommand.self, LogsCommand.self, FlakyCommand.self, DeflakeCommand.self, ExplainCommand.self, StatsCommand.self, QuarantineCommand.self, TraceCommand.self, ReportCommand.self, GraphCommand.self, WorkflowCommand.self, SchemaCommand.self, HelpCommand.self, CompletionCommand.self, ManCommand.self]
  }

  /// Commands no help lists: the helpers the shell completions call back into.
  static var hiddenCommands: [any Command.Type] { [CompleteCommand.self] }

  /// What help, the man page and the completions document, in `commands` order.
  static var documented: [DocumentedCommand] {
    commands.map { DocumentedCommand(spec: $0.documentedSpec, maxPositionals: $0.maxPositionals) }
  }

  /// The binary's `main`: this process's invocation, run, and the exit code
  /// the signal policy makes of it (128+N after a signal).
  package static func main(buildCommit: String) -> Int32 {
    // A closed stdout (`duet lanes | head`) ends a write with EPIPE instead of killing duet.
    signal(SIGPIPE, SIG_IGN)
    let signals = SignalPolicy.install()
    var invocation = Invocation.process(signals: signals)
    invocation.buildCommit = buildCommit
    let console = Console(environment: invocation.environment)
    return signals.exitCode(run(invocation, console: console))
  }

  static func run(_ invocation: Invocation, console: Console) -> Int32 {
    var invocation = invocation
    switch ColorChoice.take(from: &invocation.arguments) {
    case .failure(let error):
      console.err("duet: error: \(error.message)")
      return ExitCode.usage
    case .success(let choice?):
      return dispatch(invocation, console: console.choosing(choice, environment: invocation.environment))
    case .success(nil):
      return dispatch(invocation, console: console)
    }
  }

  /// Runs the command the arguments name, `--color` already taken.
  static func dispatch(_ invocation: Invocation, console: Console) -> Int32 {
    let arguments = invocation.arguments
    guard let first = arguments.first else {
      console.out(lines: overview)
      return ExitCode.usage
    }
    if first == "--help" || first == "-h" {
      console.out(lines: overview)
      return ExitCode.pass
    }
    if first == "--version" {
      console.out("\(duetVersionLine(buildCommit: invocation.buildCommit))")
      return ExitCode.pass
    }
    guard let command = (commands + hiddenCommands).first(where: { $0.spec.name == first }) else {
      let names = commands.map { $0.spec.name }
      let what = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'"
      console.err("duet: error: \(what)\(Suggestion.hint(for: first, in: names + ["--help", "--version"]))")
      console.err("run 'duet --help' for the commands")
      return ExitCode.usage
    }
    do {
      return try command.call(Array(arguments.dropFirst()), invocation: invocation, console: console)
    } catch let error as CommandFailure {
      console.err(lines: error.message)
      return error.code
    } catch let error as UsageError {
      console.err("duet \(error.command): error: \(error.message)")
      console.err("run 'duet \(error.command) --help' for usage")
      return ExitCode.usage
    } catch let error as any DiagnosticError {
      console.diagnostics(error.diagnostics)
      // A file that could not be read for want of a descriptor is the machine's error, not the tree's.
      return error.diagnostics.contains { MachineShortage.named(in: $0.message) } ? ExitCode.machine : ExitCode.usage
    } catch {
      console.err("duet \(first): error: \(String(describing: error))")
      return MachineShortage.caused(error) ? ExitCode.machine : ExitCode.usage
    }
  }

  static var overview: String {
    var lines = [
      "duet \(duetVersion): one verify driver for a SwiftUI + Compose repository",
      "",
      "usage: duet <command> [options]",
      "",
      "commands:",
    ]
    let width = commands.map { $0.spec.name.count }.max() ?? 0
    for command in commands {
      lines.append("  " + command.spec.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + command.spec.summary)
    }
    lines += ["", "every command takes --color auto|always|never (default auto: colour on a terminal, unless NO_COLOR is set or FORCE_COLOR asks for it)",
              "", "run 'duet help <command>' (or 'duet <command> --help') for a command's options, exit codes and examples; 'duet --version' for the version"]
    return lines.joined(separator: "\n")
  }
}
