import DuetModel
import DuetSupport

/// A mock entry duet cannot check or write: a missing source root, an unreadable
/// file, a generator that failed. Named by the entry's output and placed at the
/// entry in the manifest, so the message says which entry and which file.
public struct MockError: Error, Sendable, Equatable, CustomStringConvertible {
  public var output: String
  public var message: String
  public var location: SourceLocation?

  public init(output: String, message: String, location: SourceLocation?) {
    self.output = output
    self.message = message
    self.location = location
  }

  public var diagnostic: Diagnostic { Diagnostic("mock \(output): \(message)", at: location) }
  public var description: String { diagnostic.description }
}
