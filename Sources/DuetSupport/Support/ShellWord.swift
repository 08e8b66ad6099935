import Foundation

/// One word of a `/bin/sh` command, quoted only when it must be.
package enum ShellWord {
  package static func quoted(_ word: String) -> String {
    let safe = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "./_-:=+@%,".unicodeScalars.contains(scalar))
    }
    return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
