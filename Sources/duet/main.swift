import Foundation
import DuetApp
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport

// A closed stdout (`duet lanes | head`) ends a write with EPIPE instead of killing duet.
signal(SIGPIPE, SIG_IGN)
SignalPolicy.install()
let invocation = Invocation.process()
let console = Console(environment: invocation.environment)
exit(SignalPolicy.exitCode(Entrypoint.run(invocation, console: console)))
