import Foundation

// A closed stdout (`duet lanes | head`) ends a write with EPIPE instead of killing duet.
signal(SIGPIPE, SIG_IGN)
SignalPolicy.install()
let console = Console()
exit(SignalPolicy.exitCode(Entrypoint.run(Array(CommandLine.arguments.dropFirst()), console: console)))
