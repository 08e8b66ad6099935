import CYAML

/// libyaml's events one at a time, for a reader that builds its own model
/// straight from them instead of a `YAMLNode` tree it would walk once and free
/// (the token config's thousands of colours and fonts).
///
/// Strict by design: it goes only as far as `YAMLParser` would go without a
/// word. A parse error, an anchor or alias, a second document, nesting past
/// `YAMLParser.maxDepth`, or (in `node()`) a repeated or non-scalar key sets
/// `refused`, and the caller reads the file again through `YAMLParser`, whose
/// diagnostics stay the only ones.
package final class YAMLEventReader {
  package enum Kind: Sendable, Equatable {
    case scalar, sequenceStart, sequenceEnd, mappingStart, mappingEnd
    /// After the document, or once refused.
    case end
  }

  /// Where the reader is. Kept behind a pointer, as libyaml's own state is:
  /// a class's stored `var`s are checked for exclusive access at run time on
  /// every touch, a tenth of this reader's own work per event.
  private struct State {
    var kind = Kind.end
    var refused = false
    var depth = 0
    var holdsEvent = false
    var documents = 0
  }

  private let parser: UnsafeMutablePointer<yaml_parser_t>
  private let event: UnsafeMutablePointer<yaml_event_t>
  private let state: UnsafeMutablePointer<State>
  package let file: String
  /// The current event's kind.
  package var kind: Kind { state.pointee.kind }
  /// True once something was met that `YAMLParser` would report or refuse.
  package var refused: Bool { state.pointee.refused }
  /// Open lists and mappings around the current event (its own included).
  var depth: Int { state.pointee.depth }

  /// Reads `bytes`, which must stay valid and unmoved while the reader lives
  /// and must already have passed `TextBytes.firstProblem`. Nil when libyaml
  /// cannot start.
  package init?(_ bytes: UnsafeBufferPointer<UInt8>, file: String) {
    self.file = file
    parser = .allocate(capacity: 1)
    event = .allocate(capacity: 1)
    state = .allocate(capacity: 1)
    state.initialize(to: State())
    guard yaml_parser_initialize(parser) == 1 else {
      parser.deallocate()
      event.deallocate()
      state.deallocate()
      return nil
    }
    yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
  }

  deinit {
    if state.pointee.holdsEvent { yaml_event_delete(event) }
    yaml_parser_delete(parser)
    parser.deallocate()
    event.deallocate()
    state.deallocate()
  }

  /// Moves to the next scalar, or start or end of a list or mapping; false
  /// (and `kind` `.end`) at the end of the document or once refused.
  @discardableResult
  package func next() -> Bool {
    while !state.pointee.refused {
      if state.pointee.holdsEvent { yaml_event_delete(event) }
      state.pointee.holdsEvent = false
      guard yaml_parser_parse(parser, event) == 1 else { return refuse() }
      state.pointee.holdsEvent = true
      switch event.pointee.type {
      case YAML_SCALAR_EVENT:
        guard event.pointee.data.scalar.anchor == nil else { return refuse() }
        state.pointee.kind = .scalar
        return true
      case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
        let isMapping = event.pointee.type == YAML_MAPPING_START_EVENT
        let anchor = isMapping ? event.pointee.data.mapping_start.anchor : event.pointee.data.sequence_start.anchor
        guard anchor == nil, state.pointee.depth < YAMLParser.maxDepth else { return refuse() }
        state.pointee.depth += 1
        state.pointee.kind = isMapping ? .mappingStart : .sequenceStart
        return true
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
        state.pointee.depth -= 1
        state.pointee.kind = event.pointee.type == YAML_MAPPING_END_EVENT ? .mappingEnd : .sequenceEnd
        return true
      case YAML_DOCUMENT_START_EVENT:
        state.pointee.documents += 1
        if state.pointee.documents > 1 { return refuse() }
      case YAML_STREAM_END_EVENT:
        state.pointee.kind = .end
        return false
      case YAML_ALIAS_EVENT:
        return refuse()
      default:
        continue
      }
    }
    return false
  }

  /// Gives up: the caller falls back to `YAMLParser`.
  @discardableResult
  func refuse() -> Bool {
    state.pointee.refused = true
    state.pointee.kind = .end
    return false
  }

  /// Whether the rest of the stream reads without a problem (one document, no
  /// error): call it after the last value the caller wants.
  package func finish() -> Bool {
    while next() {}
    return !refused
  }

  /// Where the current event starts, 1-based.
  package var location: SourceLocation { SourceLocation(file: file, line: line, column: column) }
  /// The current event's 1-based line and column, without a `SourceLocation` to build.
  package var line: Int { Int(event.pointee.start_mark.line) + 1 }
  package var column: Int { Int(event.pointee.start_mark.column) + 1 }

  /// The current scalar's bytes, valid until `next()`.
  package var bytes: UnsafeBufferPointer<UInt8> {
    let scalar = event.pointee.data.scalar
    guard let value = scalar.value else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: value, count: Int(scalar.length))
  }

  /// The current scalar's text, decoded as `YAMLParser` decodes it.
  package var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Whether the current scalar was written without quotes or a block style.
  package var isPlain: Bool { event.pointee.data.scalar.style == YAML_PLAIN_SCALAR_STYLE }

  /// The current scalar as `YAMLParser` would give it.
  package var scalarNode: YAMLNode { YAMLNode(.scalar(text, plain: isPlain), at: location) }

  /// The value that starts at the current event, as `YAMLParser` builds it,
  /// leaving the reader on its last event; nil (refused) where the parser
  /// would report a key that is repeated or not a string.
  package func node() -> YAMLNode? {
    switch kind {
    case .scalar: return scalarNode
    case .sequenceStart:
      let start = location
      var items: [YAMLNode] = []
      while next(), kind != .sequenceEnd {
        guard let item = node() else { return nil }
        items.append(item)
      }
      return refused ? nil : YAMLNode(.sequence(items), at: start)
    case .mappingStart:
      let start = location
      var pairs: [YAMLPair] = []
      var keys = Set<String>()
      while next(), kind != .mappingEnd {
        guard kind == .scalar, keys.insert(text).inserted else {
          refuse()
          return nil
        }
        let key = scalarNode
        guard next(), let value = node() else {
          refuse()
          return nil
        }
        pairs.append(YAMLPair(key: key, value: value))
      }
      return refused ? nil : YAMLNode(.mapping(pairs), at: start)
    case .sequenceEnd, .mappingEnd, .end:
      refuse()
      return nil
    }
  }
}
