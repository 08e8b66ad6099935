import Foundation
import DuetApp
import DuetCommandLine
import DuetSupport

// A closed stdout (`duet lanes | head`) ends a write with EPIPE instead of killing duet.
signal(SIGPIPE, SIG_IGN)
let signals = SignalPolicy.install()
let invocation = Invocation.process(signals: signals)
let console = Console(environment: invocation.environment)
exit(signals.exitCode(Entrypoint.run(invocation, console: console)))
