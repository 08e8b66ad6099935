import Foundation

let console = Console()
exit(Entrypoint.run(Array(CommandLine.arguments.dropFirst()), console: console))
