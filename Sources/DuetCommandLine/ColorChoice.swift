import Foundation

/// `--color auto|always|never`, taken by every command, anywhere on the line
/// before a bare `--` (as `git`, `cargo` and `ls` take it): `always` paints a
/// log that is not a terminal (a CI that renders colour), `never` a terminal
/// that should stay plain. Without it, the environment decides (`NO_COLOR`,
/// `FORCE_COLOR`, `CLICOLOR_FORCE`) and then whether stdout is a terminal.
package enum ColorChoice: String, Sendable, CaseIterable {
  case auto, always, never

  /// Removes every `--color WHEN` and `--color=WHEN` from `arguments`; the
  /// last one given, nil for none, or the message for a value that is none of the three.
  package static func take(from arguments: inout [String]) -> Result<ColorChoice?, ColorChoiceError> {
    var choice: ColorChoice?
    var index = 0
    while index < arguments.count, arguments[index] != "--" {
      let word = arguments[index]
      guard word == "--color" || word.hasPrefix("--color=") else {
        index += 1
        continue
      }
      var value: String?
      if word == "--color" {
        value = index + 1 < arguments.count ? arguments[index + 1] : nil
        arguments.removeSubrange(index..<min(arguments.count, index + 2))
      } else {
        value = String(word.dropFirst("--color=".count))
        arguments.remove(at: index)
      }
      guard let value, let parsed = ColorChoice(rawValue: value) else {
        return .failure(ColorChoiceError(value: value))
      }
      choice = parsed
    }
    return .success(choice)
  }
}

package struct ColorChoiceError: Error, Sendable {
  var value: String?
  package var message: String {
    "--color takes auto, always or never" + (value.map { "; got '\($0)'" } ?? ", and got nothing")
  }
}
