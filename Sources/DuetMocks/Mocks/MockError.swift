import DuetModel
import DuetSupport

/// A mock entry duet cannot check or write: a missing source root, an unreadable
/// file, a generator that failed. Named by the entry's output and placed at the
/// entry in the manifest, so the message says which entry and which file.
package struct MockError: Error, Sendable, Equatable, CustomStringConvertible {
  var output: String
  var message: String
  var location: SourceLocation?

  package var diagnostic: Diagnostic { Diagnostic("mock \(output): \(message)", at: location) }
  package var description: String { diagnostic.description }
}
