import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

// A closed stdout (`duet lanes | head`) ends a write with EPIPE instead of killing duet.
signal(SIGPIPE, SIG_IGN)
SignalPolicy.install()
let console = Console()
exit(SignalPolicy.exitCode(Entrypoint.run(Array(CommandLine.arguments.dropFirst()), console: console)))
