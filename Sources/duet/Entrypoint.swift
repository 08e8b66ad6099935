import DuetKit
import Foundation

/// Turns a command line into a subcommand call and every error into text and an exit code.
enum Entrypoint {
  /// Every subcommand, in the order `duet --help` lists them.
  static var commands: [any Command.Type] {
    [VerifyCommand.self, HookCommand.self, LanesCommand.self, InitCommand.self, DoctorCommand.self, DesignTokensCommand.self, ThemeTestCommand.self, ContrastCommand.self, MocksCommand.self, HistoryCommand.self, LogsCommand.self, FlakyCommand.self, StatsCommand.self, GraphCommand.self, WorkflowCommand.self]
  }

  static func run(_ arguments: [String], console: Console) -> Int32 {
    guard let first = arguments.first else {
      console.out(overview)
      return ExitCode.usage
    }
    if first == "--help" || first == "-h" || first == "help" {
      console.out(overview)
      return ExitCode.pass
    }
    if first == "--version" {
      console.out("duet \(duetVersion)")
      return ExitCode.pass
    }
    guard let command = commands.first(where: { $0.spec.name == first }) else {
      let names = commands.map { $0.spec.name }
      let what = first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown command '\(first)'"
      console.err("duet: error: \(what)\(Suggestion.hint(for: first, in: names + ["--help", "--version"]))")
      console.err("run 'duet --help' for the commands")
      return ExitCode.usage
    }
    do {
      let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), spec: command.spec, maxPositionals: command.maxPositionals)
      if parsed.wantsHelp {
        console.out(command.spec.help)
        return ExitCode.pass
      }
      return try command.run(parsed, console: console)
    } catch let error as CommandFailure {
      console.err(error.message)
      return error.code
    } catch let error as UsageError {
      console.err("duet \(error.command): error: \(error.message)")
      console.err("run 'duet \(error.command) --help' for usage")
      return ExitCode.usage
    } catch let error as any DiagnosticError {
      console.diagnostics(error.diagnostics)
      return ExitCode.usage
    } catch {
      console.err("duet \(first): error: \(error)")
      return ExitCode.usage
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
    lines += ["", "run 'duet <command> --help' for a command's options; 'duet --version' for the version"]
    return lines.joined(separator: "\n")
  }
}
