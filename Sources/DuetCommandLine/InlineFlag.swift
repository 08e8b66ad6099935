/// A flag given bare (`--timings`) or with a value after `=` (`--timings=FILE`),
/// so a command tells the two apart without reading the option twice.
package enum InlineFlag: Equatable, Sendable {
  case bare
  case value(String)
}
