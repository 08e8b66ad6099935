/// One pass over a shell command for `ShellPrograms.words`: the word being
/// built, whether it has started (`''` is a word, if an empty one) and the
/// quote it is inside are the splitter's state, and each kind of character has
/// a method.
struct ShellWordSplitter {
  var words: [String] = []
  var current = ""
  var quote: Character?
  var started = false
  var characters: ArraySlice<Character>

  init(_ text: String) { characters = Array(text)[...] }

  mutating func split() -> [String] {
    while let character = characters.popFirst() {
      if let open = quote {
        readQuoted(character, inside: open)
      } else {
        readUnquoted(character)
      }
    }
    flush()
    return words
  }

  mutating func flush() {
    if started { words.append(current) }
    current = ""
    started = false
  }

  mutating func separate(_ marker: String = ShellPrograms.separator) {
    flush()
    words.append(marker)
  }

  mutating func readQuoted(_ character: Character, inside open: Character) {
    if open == "\"", character == "\\", let next = characters.first, "\"\\$`".contains(next) {
      // Inside double quotes a backslash keeps only these four literal.
      current.append(characters.removeFirst())
    } else if character == open {
      quote = nil
    } else {
      current.append(character)
    }
  }

  mutating func readUnquoted(_ character: Character) {
    switch character {
    case "'", "\"":
      quote = character
      started = true
    case "\\":
      if let next = characters.popFirst(), next != "\n" { current.append(next) }
      started = true
    case " ", "\t":
      flush()
    case "\n", ";":
      separate()
    case ")":
      separate(ShellPrograms.subshellEnd)
    case "(" where current.hasSuffix("$"):
      readSubstitution()
    case "(":
      separate(ShellPrograms.subshellStart)
    case "&" where current.hasSuffix(">") || current.hasSuffix("<") || characters.first == ">":
      current.append(character)
      started = true
    case "&", "|":
      if characters.first == character || (character == "|" && characters.first == "&") { characters.removeFirst() }
      separate()
    default:
      current.append(character)
      started = true
    }
  }

  /// `$(...)`, kept whole inside the current word, nested parentheses and all.
  mutating func readSubstitution() {
    var depth = 1
    current.append("(")
    while depth > 0, let next = characters.popFirst() {
      if next == "(" { depth += 1 } else if next == ")" { depth -= 1 }
      current.append(next)
    }
  }
}
