/// The programs a lane's shell command starts, read the simple way: the first word
/// of each command between `&&`, `||`, `;` and `|`, after `VAR=value` assignments,
/// skipping shell built-ins and words made from variables (which only the shell
/// can expand). A `cd DIR` moves where later relative programs are looked for.
public enum ShellPrograms {
  public struct Program: Sendable, Equatable {
    /// As written: `./gradlew`, `swift`.
    public var name: String
    /// The folder a `cd` before it moved to, relative to where the lane runs.
    public var directory: String?
    /// Whether it names a file (`./gradlew`, `bin/x`) rather than a program on `PATH`.
    public var isPath: Bool { name.contains("/") }
  }

  static let builtins: Set<String> = [
    "cd", "export", "set", "unset", "echo", "printf", "test", "[", "true", "false", "exit", ":", ".", "source",
    "read", "eval", "exec", "command", "env", "time", "nohup", "wait", "trap", "shift", "return", "umask", "ulimit",
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "{", "}", "!",
  ]

  public static func programs(in command: String) -> [Program] {
    var programs: [Program] = []
    var directory: String?
    for segment in segments(words(command)) {
      var index = 0
      while index < segment.count, isAssignment(segment[index]) { index += 1 }
      // `env A=1 prog`, `exec prog`, `time prog` start the word after them.
      while index < segment.count, ["env", "exec", "command", "time", "nohup"].contains(segment[index]) {
        index += 1
        while index < segment.count, segment[index].hasPrefix("-") || isAssignment(segment[index]) { index += 1 }
      }
      guard index < segment.count else { continue }
      let word = segment[index]
      if word == "cd" {
        let target = segment.count > index + 1 ? segment[index + 1] : nil
        if let target, !target.contains("$"), !target.hasPrefix("-") {
          directory = joined(directory, target)
        } else {
          directory = nil
        }
        continue
      }
      if word.contains("$") || word.contains("`") || builtins.contains(word) || word.hasPrefix("(") { continue }
      let program = Program(name: word, directory: word.contains("/") ? directory : nil)
      if !programs.contains(program) { programs.append(program) }
    }
    return programs
  }

  static func isAssignment(_ word: String) -> Bool {
    guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return false }
    return word[..<equals].allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
  }

  static func joined(_ base: String?, _ path: String) -> String {
    guard let base, !path.hasPrefix("/") else { return path }
    return base + "/" + path
  }

  /// Words with quotes removed; `&&`, `||`, `;`, `|` and newlines as words of their own.
  static func words(_ text: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quote: Character?
    var started = false
    func flush() {
      if started { words.append(current) }
      current = ""
      started = false
    }
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
      if let open = quote {
        if character == open { quote = nil } else { current.append(character) }
        continue
      }
      switch character {
      case "'", "\"":
        quote = character
        started = true
      case " ", "\t":
        flush()
      case "\n", ";":
        flush()
        words.append(";")
      case "&", "|":
        flush()
        if characters.first == character { characters.removeFirst() }
        words.append(";")
      default:
        current.append(character)
        started = true
      }
    }
    flush()
    return words
  }

  static func segments(_ words: [String]) -> [[String]] {
    words.split(separator: ";").map(Array.init)
  }
}
