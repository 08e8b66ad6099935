import Foundation

/// The `package` declarations under `Sources/` and what the other targets
/// mention, read once per test run (issue 54, item 1). A declaration is
/// needed as `package` when a target that may import its target mentions its
/// name as a word, or when a `package` declaration of its own target names it
/// in its signature (the compiler wants the types of a `package` signature
/// `package` too). `tools/lower-package` lowers by a stricter form of the same
/// rule and lets the compiler have the last word, so whatever this finds
/// needless, the tool lowers.
struct PackageSurface {
  /// One `package` declaration: where it is and the names it declares (none
  /// for an `init`, a subscript or an operator, which have none to look for;
  /// several for `package var a = 0, b = 0`).
  struct Declaration {
    var target: String
    var file: String
    var line: Int
    var names: [String]
  }

  var declarations: [Declaration] = []
  /// Per target, the words of its sources outside full-line comments.
  var words: [String: Set<Substring>] = [:]
  /// Per target, the words of its own `package` signatures, each with the lines it is on.
  var signatureWords: [String: [Substring: Set<Int>]] = [:]
  /// Per target, the targets that may import it (those depending on it, directly or not).
  var users: [String: Set<String>] = [:]

  static let shared: Result<PackageSurface, Error> = Result { try PackageSurface(sources: LayerTests.sources) }

  init(sources: URL) throws {
    let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path)
      .filter { !$0.hasPrefix(".") && LayerTests.cOwner[$0] == nil }
    for target in targets {
      let folder = sources.appendingPathComponent(target)
      let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
      var targetWords: Set<Substring> = []
      for file in files.sorted() where file.hasSuffix(".swift") {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        read(text, target: target, file: "\(target)/\(file)", into: &targetWords)
      }
      words[target] = targetWords
    }
    users = try Self.users(of: Set(targets), manifest: sources.deletingLastPathComponent().appendingPathComponent("Package.swift"))
  }

  /// Indexes one file's words and records its `package` declarations and the
  /// words their access must cover: their signatures (to the line opening the
  /// body), enum cases' payloads, and the requirements of protocols.
  private mutating func read(_ text: String, target: String, file: String, into targetWords: inout Set<Substring>) {
    var signatureLinesLeft = 0
    var declarationLine = 0
    var depth = 0
    var protocolDepth: Int?
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let code = line.drop { $0 == " " }
      if code.hasPrefix("//") { continue }
      let lineWords = Self.words(in: line)
      targetWords.formUnion(lineWords)
      if let declared = Self.declaredNames(code) {
        declarations.append(Declaration(target: target, file: file, line: index + 1, names: declared))
        signatureLinesLeft = 40
        declarationLine = index + 1
      }
      if protocolDepth == nil, lineWords.contains("protocol"), line.contains("{") { protocolDepth = depth }
      let covered = signatureLinesLeft > 0 || protocolDepth != nil || code.hasPrefix("case ") || code.hasPrefix("indirect case ")
      if signatureLinesLeft > 0 {
        signatureLinesLeft = line.contains("{") ? 0 : signatureLinesLeft - 1
      } else if protocolDepth == nil {
        declarationLine = 0  // a case or a requirement covers its words for every declaration
      }
      depth += line.count(where: { $0 == "{" }) - line.count(where: { $0 == "}" })
      if let opened = protocolDepth, depth <= opened { protocolDepth = nil }
      guard covered else { continue }
      for word in lineWords { signatureWords[target, default: [:]][word, default: []].insert(declarationLine) }
    }
  }

  /// The identifier-shaped words of a line.
  static func words(in line: Substring) -> Set<Substring> {
    var found: Set<Substring> = []
    var start: Substring.Index?
    var index = line.startIndex
    while index < line.endIndex {
      let character = line[index]
      let isWord = character == "_" || character.isLetter || (start != nil && character.isNumber)
      if isWord, start == nil { start = index }
      if !isWord, let first = start {
        found.insert(line[first..<index])
        start = nil
      }
      index = line.index(after: index)
    }
    if let first = start { found.insert(line[first...]) }
    return found
  }

  static let modifiers: Set<Substring> = [
    "static", "final", "mutating", "nonmutating", "nonisolated", "override", "indirect", "lazy",
    "convenience", "required", "weak", "unowned", "dynamic", "consuming", "borrowing", "optional",
    "private(set)", "fileprivate(set)", "internal(set)",
  ]
  static let kinds: Set<Substring> = [
    "func", "var", "let", "struct", "enum", "class", "protocol", "typealias", "actor", "associatedtype",
    "init", "subscript", "deinit", "extension",
  ]

  /// For a line declaring something `package`: the names it declares (none
  /// for an `init`, a `subscript`, an operator, an extension); nil for any other line.
  static func declaredNames(_ code: Substring) -> [String]? {
    var tokens = code.split(separator: " ", omittingEmptySubsequences: true)[...]
    while let first = tokens.first, first.hasPrefix("@") { tokens.removeFirst() }
    guard let access = tokens.first, access == "package" || access == "package(set)" else { return nil }
    tokens.removeFirst()
    // `class` is a modifier before `func` or `var`, and a kind before a name.
    while let first = tokens.first, modifiers.contains(first) || (first == "class" && tokens.count > 1
      && kinds.contains(tokens[tokens.startIndex + 1].prefix(while: { $0.isLetter }))) { tokens.removeFirst() }
    guard let kind = tokens.first?.prefix(while: { $0.isLetter }), kinds.contains(kind) else { return nil }
    if ["init", "subscript", "deinit", "extension"].contains(kind) { return [] }
    let rest = tokens.dropFirst().joined(separator: " ")
    let name = String(rest.prefix { $0 == "_" || $0.isLetter || $0.isNumber || $0 == "`" }.filter { $0 != "`" })
    guard !name.isEmpty else { return [] }
    guard kind == "var" || kind == "let" else { return [name] }
    // `package var a = 0, b = 0` declares each name after a comma at the top level.
    var names = [name]
    var depth = 0
    var afterComma = false
    var current = ""
    for character in rest {
      if "([{<".contains(character) { depth += 1 } else if ")]}>".contains(character) { depth -= 1 }
      if depth == 0, character == "," { afterComma = true; current = ""; continue }
      guard afterComma else { continue }
      if character == "_" || character.isLetter || character.isNumber { current.append(character); continue }
      if character == " ", current.isEmpty { continue }
      if character == ":" || character == "=" || character == " ", !current.isEmpty { names.append(current) }
      afterComma = false
    }
    return names
  }

  /// The targets that may import each target, from `Package.swift`'s edges.
  static func users(of targets: Set<String>, manifest: URL) throws -> [String: Set<String>] {
    let text = try String(contentsOf: manifest, encoding: .utf8)
    let target = try Regex(#"\.(?:executableTarget|target)\(\s*name:\s*"(\w+)",\s*dependencies:\s*\[([^\]]*)\]"#)
    let quoted = try Regex(#""(\w+)""#)
    var direct: [String: Set<String>] = [:]
    for match in text.matches(of: target) {
      guard let name = match.output[1].substring, let list = match.output[2].substring else { continue }
      direct[String(name)] = Set(list.matches(of: quoted).compactMap { $0.output[1].substring.map(String.init) })
    }
    func below(_ target: String) -> Set<String> {
      var seen: Set<String> = []
      var queue = Array(direct[target] ?? [])
      while let next = queue.popLast() {
        if seen.insert(next).inserted { queue += direct[next] ?? [] }
      }
      return seen
    }
    let beneath = Dictionary(uniqueKeysWithValues: targets.map { ($0, below($0)) })
    return Dictionary(uniqueKeysWithValues: targets.map { used in
      (used, Set(targets.filter { beneath[$0]?.contains(used) == true }))
    })
  }

  /// Requirements of the standard library's protocols that Swift calls without
  /// the source spelling them (string interpolation, mirrors, property
  /// wrappers, `for` loops); the compiler wants them as visible as their type.
  static let spelledByTheLanguage: Set<String> = [
    "StringInterpolation", "appendLiteral", "appendInterpolation", "customMirror", "wrappedValue",
    "projectedValue", "makeIterator", "next", "callAsFunction",
  ]

  /// `file:line name` of every named `package` declaration no target that may
  /// import its target mentions, and no other `package` signature of its own target names.
  func needless() -> [String] {
    declarations.compactMap { declaration in
      guard !declaration.names.isEmpty, !declaration.names.contains(where: { isUsed($0, declaration) }),
            !declaration.names.contains(where: { Self.spelledByTheLanguage.contains($0) }) else { return nil }
      return "\(declaration.file):\(declaration.line) \(declaration.names.joined(separator: ", "))"
    }
  }

  /// Whether a target that may import the declaration's mentions the name, or
  /// another `package` signature of its own target does.
  func isUsed(_ name: String, _ declaration: Declaration) -> Bool {
    let word = Substring(name)
    if users[declaration.target, default: []].contains(where: { words[$0]?.contains(word) == true }) { return true }
    let signatures = signatureWords[declaration.target]?[word] ?? []
    return !signatures.subtracting([declaration.line]).isEmpty
  }
}
