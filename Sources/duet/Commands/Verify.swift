import DuetKit
import Foundation

enum VerifyCommand: Command {
  static let spec = CommandSpec(name: "verify", summary: "run every lane as a parallel DAG", usage: "duet verify", options: [CommandSpec.rootOption])
  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 { 0 }
}
