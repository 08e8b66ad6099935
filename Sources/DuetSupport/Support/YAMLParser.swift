import CYAML
import Foundation

/// A file that is not YAML, or YAML that duet refuses (duplicate keys, runaway aliases).
package struct YAMLError: DiagnosticError {
  package var diagnostics: [Diagnostic]
}

/// Reads YAML through libyaml's event API into `YAMLNode`s that keep 1-based marks.
///
/// Aliases are expanded by copying the anchored node, within a budget of nodes,
/// so a "billion laughs" file ends in an error naming its line rather than in
/// exhausted memory.
package enum YAMLParser {
  /// The most nodes alias expansion may add to one file.
  static let aliasNodeBudget = 10_000
  /// The deepest nesting of lists and mappings a file may have. Checked as each
  /// one opens, so a deep file is refused before it is built; the nodes duet
  /// keeps are then never deep enough for recursion over them (freeing them
  /// included) to exhaust a thread's stack.
  static let maxDepth = 512

  /// Parses the first document of `text`; `file` is the name used in messages.
  package static func parse(_ text: String, file: String) throws(YAMLError) -> YAMLNode {
    var bytes = Array(text.utf8)
    if bytes.isEmpty { bytes = [0x0A] }
    return try bytes.withUnsafeBufferPointer { buffer throws(YAMLError) -> YAMLNode in
      if let bad = TextBytes.firstProblem(in: buffer) {
        throw YAMLError(diagnostics: [Diagnostic("\(file) is not YAML text: \(bad.what)", at: SourceLocation(file: file, line: bad.line, column: bad.column))])
      }
      return try build(buffer, file: file)
    }
  }

  /// Builds the nodes of bytes already checked by `TextBytes.firstProblem`.
  private static func build(_ buffer: UnsafeBufferPointer<UInt8>, file: String) throws(YAMLError) -> YAMLNode {
    var builder = Builder(file: file)
    return try builder.run(buffer)
  }

  /// Reads and parses the file at `url`, naming it `file` in messages.
  package static func load(_ url: URL, file: String) throws(YAMLError) -> YAMLNode {
    try parse(read(url, file: file), file: file)
  }

  /// The bytes of the regular file at `url`, as `load` reads them (the same
  /// refusals), for a reader that takes libyaml's events itself.
  package static func read(_ url: URL, file: String) throws(YAMLError) -> Data {
    func unreadable(_ code: Int32) -> YAMLError {
      YAMLError(diagnostics: [Diagnostic("cannot read \(file): \(String(cString: strerror(code)))")])
    }
    var info = stat()
    guard stat(url.path, &info) == 0 else { throw unreadable(errno) }
    guard info.st_mode & S_IFMT != S_IFDIR else { throw unreadable(EISDIR) }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw YAMLError(diagnostics: [Diagnostic("cannot read \(file): it is \(PathGuard.kindName(info.st_mode)), not a regular file")])
    }
    do {
      // The file's own path (a link the user made to a manifest is theirs);
      // what is opened must still be a regular file, so a swap cannot block.
      let resolved = url.resolvingSymlinksInPath().path
      return try PathGuard.readRegularFile(atAbsolute: resolved, displayPath: file)
    } catch {
      throw YAMLError(diagnostics: [Diagnostic("\(error)")])
    }
  }

  /// Parses bytes read from a file: a NUL or a byte that is not UTF-8 is an
  /// error at its own line and column, not at the top of the file.
  package static func parse(_ data: Data, file: String) throws(YAMLError) -> YAMLNode {
    if let bad = TextBytes.firstProblem(in: data) {
      throw YAMLError(diagnostics: [Diagnostic("\(file) is not UTF-8 text: \(bad.what)", at: SourceLocation(file: file, line: bad.line, column: bad.column))])
    }
    // Checked bytes go to libyaml as they are: no String to decode, copy back
    // and check a second time (a tenth of a large config's load).
    if data.isEmpty { return try parse("", file: file) }
    let result = data.withUnsafeBytes { raw in
      Result { () throws(YAMLError) in try build(raw.bindMemory(to: UInt8.self), file: file) }
    }
    return try result.get()
  }

  private struct Builder {
    let file: String
    var anchors: [String: (node: YAMLNode, size: Int, depth: Int)] = [:]
    var expandedNodes = 0
    var problems: [Diagnostic] = []

    init(file: String) { self.file = file }

    func location(_ mark: yaml_mark_t) -> SourceLocation {
      SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    /// An open collection while its children are read; a class, so children are
    /// appended in place rather than copying the collection at every step.
    final class Frame {
      let isMapping: Bool
      let location: SourceLocation
      let anchor: String?
      var items: [YAMLNode] = []
      var pairs: [YAMLPair] = []
      var pendingKey: YAMLNode?
      /// The keys so far, hashed only once a mapping is large: most have a few
      /// pairs, and a set per mapping cost more than scanning them.
      var seen: Set<String> = []
      var size = 1
      /// How many levels the deepest child adds below this collection.
      var height = 0

      init(isMapping: Bool, location: SourceLocation, anchor: String?) {
        self.isMapping = isMapping
        self.location = location
        self.anchor = anchor
      }

      var node: YAMLNode {
        YAMLNode(isMapping ? .mapping(pairs) : .sequence(items), at: location)
      }

      /// Whether `key` was already a key of this mapping; remembers it. The
      /// same `String` equality a `Set` uses, by scan up to `scanLimit` pairs.
      func isKeyRepeated(_ key: String) -> Bool {
        let scanLimit = 16
        if pairs.count < scanLimit {
          return pairs.contains { $0.key.scalar == key }
        }
        if seen.isEmpty {
          for pair in pairs { if let text = pair.key.scalar { seen.insert(text) } }
        }
        return !seen.insert(key).inserted
      }
    }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) throws(YAMLError) -> YAMLNode {
      var parser = yaml_parser_t()
      guard yaml_parser_initialize(&parser) == 1 else {
        throw YAMLError(diagnostics: [Diagnostic("cannot start the YAML parser (out of memory)")])
      }
      defer { yaml_parser_delete(&parser) }
      yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)

      var stack: [Frame] = []
      var root: YAMLNode?
      var documentEnded = false

      while true {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else {
          throw YAMLError(diagnostics: [parserProblem(parser)])
        }
        defer { yaml_event_delete(&event) }
        let start = location(event.start_mark)

        switch event.type {
        case YAML_STREAM_END_EVENT:
          if !problems.isEmpty { throw YAMLError(diagnostics: problems) }
          return root ?? YAMLNode(.scalar("", plain: true), at: SourceLocation(file: file, line: 1, column: 1))
        case YAML_DOCUMENT_END_EVENT:
          documentEnded = true
        case YAML_DOCUMENT_START_EVENT:
          if documentEnded {
            throw YAMLError(diagnostics: [Diagnostic("expected one YAML document, found a second one", at: start)])
          }
        case YAML_SCALAR_EVENT:
          try addScalar(of: event, at: start, to: &stack, root: &root)
        case YAML_ALIAS_EVENT:
          try addAlias(of: event, at: start, to: &stack, root: &root)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
          guard stack.count < YAMLParser.maxDepth else {
            throw YAMLError(diagnostics: [Diagnostic(
              "nesting deeper than \(YAMLParser.maxDepth) levels (lists and mappings inside each other); duet refuses deeper files",
              at: start)])
          }
          let isMapping = event.type == YAML_MAPPING_START_EVENT
          let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
          stack.append(Frame(isMapping: isMapping, location: start, anchor: anchor.map { String(cString: $0) }))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
          guard let frame = stack.popLast() else { break }
          let node = frame.node
          if let anchor = frame.anchor { anchors[anchor] = (node, frame.size, frame.height + 1) }
          try add(node, size: frame.size, height: frame.height + 1, to: &stack, root: &root)
        default:
          break
        }
      }
    }

    mutating func addScalar(of event: yaml_event_t, at start: SourceLocation, to stack: inout [Frame], root: inout YAMLNode?) throws(YAMLError) {
      let scalar = event.data.scalar
      let text = scalar.value.map { pointer in
        String(decoding: UnsafeBufferPointer(start: pointer, count: Int(scalar.length)), as: UTF8.self)
      } ?? ""
      let node = YAMLNode(.scalar(text, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE), at: start)
      remember(anchor: scalar.anchor, node: node, size: 1)
      try add(node, size: 1, height: 0, to: &stack, root: &root)
    }

    /// A copy of the anchored node, refused past the expansion budget or the
    /// depth limit, so a few lines of aliases cannot blow up into millions of nodes.
    mutating func addAlias(of event: yaml_event_t, at start: SourceLocation, to stack: inout [Frame], root: inout YAMLNode?) throws(YAMLError) {
      let name = event.data.alias.anchor.map { String(cString: $0) } ?? ""
      guard let anchored = anchors[name] else {
        throw YAMLError(diagnostics: [Diagnostic("unknown alias '*\(name)'", at: start)])
      }
      expandedNodes += anchored.size
      if expandedNodes > YAMLParser.aliasNodeBudget {
        throw YAMLError(diagnostics: [Diagnostic(
          "aliases expand to more than \(YAMLParser.aliasNodeBudget) nodes; refusing to expand '*\(name)'",
          at: start)])
      }
      if stack.count + anchored.depth > YAMLParser.maxDepth {
        throw YAMLError(diagnostics: [Diagnostic(
          "nesting deeper than \(YAMLParser.maxDepth) levels (lists and mappings inside each other) once '*\(name)' is expanded; duet refuses deeper files",
          at: start)])
      }
      var copy = anchored.node
      copy.location = start
      try add(copy, size: anchored.size, height: anchored.depth, to: &stack, root: &root)
    }

    mutating func remember(anchor: UnsafeMutablePointer<yaml_char_t>?, node: YAMLNode, size: Int) {
      guard let anchor else { return }
      anchors[String(cString: anchor)] = (node, size, 0)
    }

    mutating func add(_ node: YAMLNode, size: Int, height: Int, to stack: inout [Frame], root: inout YAMLNode?) throws(YAMLError) {
      guard let top = stack.last else {
        root = node
        return
      }
      top.size += size
      top.height = max(top.height, height)
      guard top.isMapping else {
        top.items.append(node)
        return
      }
      if let key = top.pendingKey {
        top.pairs.append(YAMLPair(key: key, value: node))
        top.pendingKey = nil
        return
      }
      if let text = node.scalar {
        if top.isKeyRepeated(text) {
          problems.append(Diagnostic("duplicate key '\(text)' in this mapping", at: node.location))
        }
      } else {
        problems.append(Diagnostic("a mapping key must be a plain string, got \(node.summary)", at: node.location))
      }
      top.pendingKey = node
    }

    func parserProblem(_ parser: yaml_parser_t) -> Diagnostic {
      let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
      let context = parser.context.map { String(cString: $0) }
      let message = "not valid YAML: " + (context.map { "\($0): " } ?? "") + problem
      return Diagnostic(message, at: location(parser.problem_mark))
    }
  }
}
