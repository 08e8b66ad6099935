import Foundation

/// One word of a `/bin/sh` command, quoted only when it must be: the one
/// escaping of text for the shell, so a path or a name from the tree is one
/// word there and never runs. What it writes is `ShellText`.
package enum ShellWord: OutputLanguage {
  package static var defaultContext: Void { () }

  /// `word` as one shell word.
  package static func quoted(_ word: String) -> ShellText {
    ShellText(escaping: word)
  }

  package static func escape(_ word: String, in context: Void) -> String {
    let safe = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "./_-:=+@%,".unicodeScalars.contains(scalar))
    }
    return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
