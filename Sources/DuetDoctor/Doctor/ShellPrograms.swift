
/// The programs a lane's shell command starts, read the simple way: the first word
/// of each command between `&&`, `||`, `;`, `|`, `&` and a subshell's parentheses,
/// after `VAR=value` assignments and redirections,
/// skipping shell built-ins and words made from variables (which only the shell
/// can expand). A `cd DIR` moves where later relative programs are looked for.
enum ShellPrograms {
  struct Program: Sendable, Equatable {
    /// As written: `./gradlew`, `swift`.
    var name: String
    /// The folder a `cd` before it moved to, relative to where the lane runs.
    var directory: String?
    /// Whether it names a file (`./gradlew`, `bin/x`) rather than a program on `PATH`.
    var isPath: Bool { name.contains("/") }
  }

  static let builtins: Set<String> = [
    "cd", "export", "set", "unset", "echo", "printf", "test", "[", "true", "false", "exit", ":", ".", "source",
    "read", "eval", "exec", "command", "env", "time", "nohup", "wait", "trap", "shift", "return", "umask", "ulimit",
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "{", "}", "!",
  ]

  /// What `words` puts between commands, and around a subshell, in place of the
  /// shell's own syntax; no word of a command can be one of these.
  static let separator = "\u{1}sep"
  static let subshellStart = "\u{1}("
  static let subshellEnd = "\u{1})"

  static func programs(in command: String) -> [Program] {
    var programs: [Program] = []
    var directory: String?
    // A `cd` inside `( ... )` moves only the subshell.
    var saved: [String?] = []
    var segment: [String] = []
    func finish() {
      defer { segment = [] }
      var index = 0
      while index < segment.count, isAssignment(segment[index]) || isRedirection(segment[index]) {
        // `>log prog` and `2> log prog`: the file is not the program.
        if segment[index].last == ">" || segment[index].last == "<" { index += 1 }
        index += 1
      }
      // `env A=1 prog`, `exec prog`, `time prog` start the word after them.
      while index < segment.count, ["env", "exec", "command", "time", "nohup"].contains(segment[index]) {
        index += 1
        while index < segment.count, segment[index].hasPrefix("-") || isAssignment(segment[index]) { index += 1 }
      }
      guard index < segment.count else { return }
      let word = segment[index]
      if word == "cd" {
        let target = segment.count > index + 1 ? segment[index + 1] : nil
        if let target, !target.contains("$"), !target.hasPrefix("-") {
          directory = joined(directory, target)
        } else {
          directory = nil
        }
        return
      }
      if word.contains("$") || word.contains("`") || builtins.contains(word) { return }
      let program = Program(name: word, directory: word.contains("/") ? directory : nil)
      if !programs.contains(program) { programs.append(program) }
    }
    for word in words(command) {
      switch word {
      case separator:
        finish()
      case subshellStart:
        finish()
        saved.append(directory)
      case subshellEnd:
        finish()
        if let outer = saved.popLast() { directory = outer }
      default:
        segment.append(word)
      }
    }
    finish()
    return programs
  }

  /// `>log`, `2>&1`, `<in`, `&>all`: a redirection, not a program.
  static func isRedirection(_ word: String) -> Bool {
    let rest = word.drop { $0.isNumber || $0 == "&" }
    return rest.first == ">" || rest.first == "<"
  }

  static func isAssignment(_ word: String) -> Bool {
    guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return false }
    return word[..<equals].allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
  }

  static func joined(_ base: String?, _ path: String) -> String {
    guard let base, !path.hasPrefix("/") else { return path }
    return base + "/" + path
  }

  /// Words with quotes and backslashes removed; `&&`, `||`, `;`, `|`, `&` and
  /// newlines as `separator`, a subshell's parentheses as `subshellStart` and
  /// `subshellEnd`. A `&` that is
  /// part of a redirection (`2>&1`, `&>log`) and a `$(...)` substitution stay
  /// inside their word.
  static func words(_ text: String) -> [String] {
    var splitter = ShellWordSplitter(text)
    return splitter.split()
  }
}
