/// Finds every `func` and `init` in Swift source and how many lines its body
/// spans, for `FunctionLengthTests`. A real scanner rather than a regex: braces
/// inside comments, string literals (interpolations included) and multi-line
/// string literals must not open or close anything, and the lines inside a
/// multi-line string literal do not count towards a function's length.
struct FunctionScanner {
  /// One function or initializer with a body.
  struct Function: Equatable, CustomStringConvertible {
    /// The enclosing types and functions and the function's own name, joined
    /// by dots: `Parser.parse`, `Parser.parse.step`, `Plan.init`.
    var name: String
    var line: Int
    var endLine: Int
    /// From the `func` or `init` line to the closing brace, both included,
    /// less the lines inside multi-line string literals.
    var length: Int

    var description: String { "\(line) \(name) (\(length) lines)" }
  }

  /// The functions of `source`, in the order their bodies close.
  static func functions(in source: String) -> [Function] {
    var lexer = Lexer(Array(source.utf8))
    lexer.scanCode()
    var reader = DeclarationReader(tokens: lexer.tokens, literalLines: lexer.literalLines)
    reader.read()
    return reader.functions
  }
}

extension FunctionScanner {
  /// A word or a punctuation mark outside comments and string literals.
  struct Token {
    var text: String
    var line: Int
  }

  /// Turns source into tokens, dropping comments and string literals, and
  /// notes every line that lies inside a multi-line string literal.
  struct Lexer {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var tokens: [Token] = []
    var literalLines: Set<Int> = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func peek(_ offset: Int = 0) -> UInt8? {
      index + offset < bytes.count ? bytes[index + offset] : nil
    }

    mutating func advance() {
      if bytes[index] == UInt8(ascii: "\n") { line += 1 }
      index += 1
    }

    /// Code up to the end of the source or, inside an interpolation, up to
    /// the `)` that closes it.
    mutating func scanCode(insideInterpolation: Bool = false) {
      var parentheses = 0
      while let byte = peek() {
        switch byte {
        case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "/"):
          while let next = peek(), next != UInt8(ascii: "\n") { advance() }
        case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
          skipBlockComment()
        case UInt8(ascii: "\""):
          scanStringLiteral()
        case UInt8(ascii: "#") where startsStringLiteral():
          scanStringLiteral()
        case UInt8(ascii: ")") where insideInterpolation && parentheses == 0:
          advance()
          return
        case _ where isWordByte(byte):
          scanWord()
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
          advance()
        default:
          if byte == UInt8(ascii: "(") { parentheses += 1 }
          if byte == UInt8(ascii: ")") { parentheses -= 1 }
          tokens.append(Token(text: String(UnicodeScalar(byte)), line: line))
          advance()
        }
      }
    }

    func isWordByte(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: "_") || byte == UInt8(ascii: "`") || byte >= 0x80
        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    mutating func scanWord() {
      let start = index
      while let byte = peek(), isWordByte(byte) { advance() }
      tokens.append(Token(text: String(decoding: bytes[start..<index], as: UTF8.self), line: line))
    }

    /// `/* ... */`, which nests in Swift.
    mutating func skipBlockComment() {
      var depth = 0
      while peek() != nil {
        if peek() == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
          depth += 1
          advance()
        } else if peek() == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
          depth -= 1
          advance()
          if depth == 0 {
            advance()
            return
          }
        }
        advance()
      }
    }

    /// Whether a `"` or a run of `#` followed by `"` starts here.
    func startsStringLiteral() -> Bool {
      var offset = 0
      while peek(offset) == UInt8(ascii: "#") { offset += 1 }
      return peek(offset) == UInt8(ascii: "\"")
    }

    func startsDelimiter(_ delimiter: [UInt8]) -> Bool {
      delimiter.indices.allSatisfy { peek($0) == delimiter[$0] }
    }

    /// A `"..."`, `"""..."""` or raw `#"..."#` literal, interpolations and
    /// all; the lines after a multi-line literal's opening line, up to and
    /// including its closing delimiter, are literal lines.
    mutating func scanStringLiteral() {
      var hashes: [UInt8] = []
      while peek() == UInt8(ascii: "#") {
        hashes.append(UInt8(ascii: "#"))
        advance()
      }
      let quotes = startsDelimiter(Array(#"""""#.utf8)) ? 3 : 1
      for _ in 0..<quotes { advance() }
      let opening = line
      let closing = Array(repeating: UInt8(ascii: "\""), count: quotes) + hashes
      let interpolation = [UInt8(ascii: "\\")] + hashes + [UInt8(ascii: "(")]
      let escape = [UInt8(ascii: "\\")] + hashes
      while peek() != nil {
        if startsDelimiter(closing) {
          for _ in closing { advance() }
          break
        } else if startsDelimiter(interpolation) {
          for _ in interpolation { advance() }
          scanCode(insideInterpolation: true)
        } else if startsDelimiter(escape) {
          for _ in escape { advance() }
          if peek() != nil { advance() }
        } else {
          advance()
        }
      }
      if quotes == 3, line > opening { literalLines.formUnion((opening + 1)...line) }
    }
  }
}

extension FunctionScanner {
  /// Walks the tokens, matching braces, and names each function by the types
  /// and functions around it.
  struct DeclarationReader {
    /// What an open brace belongs to.
    enum Scope {
      case type(String)
      case function(name: String, line: Int)
      case other
    }
    /// A declaration whose body's `{` has not been reached yet.
    enum Pending {
      case type(String)
      case function(name: String, line: Int)
    }

    let tokens: [Token]
    let literalLines: Set<Int>
    var index = 0
    var scopes: [Scope] = []
    var pending: Pending?
    /// Parentheses and brackets open since the pending declaration began: a
    /// `{` inside them (a default argument's closure) is not its body.
    var nesting = 0
    var functions: [Function] = []

    static let typeKeywords: Set<String> = ["struct", "class", "enum", "actor", "extension", "protocol"]
    /// Words that start another declaration, so the pending one has no body
    /// (a protocol requirement).
    static let declarationKeywords: Set<String> = [
      "func", "init", "var", "let", "case", "subscript", "typealias", "associatedtype", "deinit",
      "struct", "class", "enum", "actor", "extension", "protocol", "static", "mutating", "public",
      "private", "fileprivate", "internal", "override", "final", "nonisolated",
    ]

    /// `name` qualified by the innermost type or function around it, whose
    /// own name is already qualified.
    func qualified(_ name: String) -> String {
      for scope in scopes.reversed() {
        switch scope {
        case .type(let outer), .function(let outer, _): return outer + "." + name
        case .other: continue
        }
      }
      return name
    }

    func token(_ offset: Int) -> Token? {
      tokens.indices.contains(index + offset) ? tokens[index + offset] : nil
    }

    /// `.init(...)`, `self.init`, `x.extension`: a member, not a declaration.
    var followsDot: Bool { token(-1)?.text == "." }

    mutating func read() {
      while let current = token(0) {
        if pending != nil, readPendingToken(current.text) { continue }
        switch current.text {
        case "{": scopes.append(.other)
        case "}": close(at: current.line)
        case "func" where !followsDot:
          startFunction(named: token(1)?.text ?? "?", at: current.line)
          index += 1  // past the name, which may be an operator such as `==`
        case "init" where !followsDot:
          startFunction(named: "init", at: current.line)
        case let word where Self.typeKeywords.contains(word) && !followsDot:
          startType(after: word)
        default: break
        }
        index += 1
      }
    }

    /// Handles a token while a declaration waits for its body; false when
    /// the token ends the wait without a body and must be read again.
    mutating func readPendingToken(_ text: String) -> Bool {
      switch text {
      case "(", "[": nesting += 1
      case ")", "]": nesting -= 1
      case "{" where nesting == 0:
        switch pending {
        case .type(let name): scopes.append(.type(name))
        case .function(let name, let line): scopes.append(.function(name: name, line: line))
        case nil: break
        }
        pending = nil
      case "}" where nesting == 0:
        pending = nil
        return false
      case let word where nesting == 0 && Self.declarationKeywords.contains(word):
        pending = nil
        return false
      default: break
      }
      index += 1
      return true
    }

    mutating func startFunction(named name: String, at line: Int) {
      pending = .function(name: qualified(name), line: line)
      nesting = 0
    }

    /// `class func` and `class var` are members, not a class.
    mutating func startType(after keyword: String) {
      guard let name = token(1)?.text, !Self.declarationKeywords.contains(name) else { return }
      var words = [name]
      while token(words.count * 2)?.text == ".", let part = token(words.count * 2 + 1)?.text {
        words.append(part)
      }
      pending = .type(qualified(words.joined(separator: ".")))
      nesting = 0
      index += words.count * 2 - 1
    }

    mutating func close(at line: Int) {
      guard case .function(let name, let start)? = scopes.popLast() else { return }
      let literal = literalLines.filter { (start...line).contains($0) }.count
      functions.append(Function(name: name, line: start, endLine: line, length: line - start + 1 - literal))
    }
  }
}
