import Foundation
import DuetModel
import DuetSupport

/// The colours and fonts `TokenEventReader` read from libyaml's events, handed
/// to the checked `Reader` in place of the `colors:` and `fonts:` nodes.
struct PrereadTokens {
  var colorGroups: [TokenGroup<ColorToken>]?
  var fontGroups: [TokenGroup<FontToken>]?
  var colorNames: [String: SourceLocation] = [:]
  var fontNames: [String: SourceLocation] = [:]
  var colorAliases: [PendingColorAlias] = []
  /// A font gave no `swift: textStyle:`, which a swift target requires.
  var fontWithoutTextStyle = false
  init() {}
}

/// A token config read straight from libyaml's events. The colours and fonts,
/// nearly all of a large config, go into the model as their events arrive,
/// with no `YAMLNode` tree to build, walk and free; the other sections are
/// small and are built as nodes for the checked `Reader`, which also takes the
/// tokens read here and does every check across them (aliases, styles,
/// contrast, themes).
///
/// It reads only a config with nothing to report: at the first thing the
/// checked path would report, or a form it leaves to it (an anchor, an
/// alias, a key past ASCII), it gives up and the loader reads the file the
/// checked way, so every diagnostic still comes from that one place.
struct TokenEventReader {
  let events: YAMLEventReader
  var preread = PrereadTokens()
  /// The current token's values by key, reused from token to token.
  var slots: [Slot?] = []
  /// A font's `swift: textStyle:`, read apart from its other values.
  var textStyle: Slot?
  /// Whether the current font's `swift:` was a mapping.
  var swiftMapping = false

  /// One scalar value of a token, as the checked path would see it; its
  /// place as two numbers, made a `SourceLocation` only where one is kept.
  struct Slot {
    var text: String
    var plain: Bool
    var line: Int
    var column: Int
    var isNull: Bool { plain && (text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL") }
  }

  /// The config in `bytes` (already checked by `TextBytes.firstProblem`), or
  /// nil when the checked path must read it.
  static func read(
    _ bytes: UnsafeBufferPointer<UInt8>, path: String, root: URL?, themeTest: ThemeTestFile?
  ) -> TokenConfig? {
    guard !bytes.isEmpty, let events = YAMLEventReader(bytes, file: path) else { return nil }
    var reader = TokenEventReader(events: events)
    guard let top = reader.topMapping(), events.finish() else { return nil }
    if reader.preread.fontWithoutTextStyle, top["swift"] != nil { return nil }
    var checked = TokenConfigLoader.Reader()
    checked.root = root
    checked.themeTestFile = themeTest
    checked.preread = reader.preread
    let config = checked.config(top, path: path)
    guard checked.diagnostics.isEmpty else { return nil }
    return config
  }

  /// The document's top mapping, `colors:` and `fonts:` read into `preread`
  /// and standing in it as empty lists at their places.
  mutating func topMapping() -> YAMLNode? {
    guard events.next(), events.kind == .mappingStart else { return nil }
    let start = events.location
    var pairs: [YAMLPair] = []
    var keys = Set<String>()
    while events.next(), events.kind != .mappingEnd {
      guard events.kind == .scalar else { return nil }
      let key = events.scalarNode
      guard let name = key.scalar, keys.insert(name).inserted, events.next() else { return nil }
      if events.kind == .sequenceStart && (name == "colors" || name == "fonts") {
        let location = events.location
        if name == "colors" {
          guard let groups = groups(token: { $0.colorToken() }) else { return nil }
          preread.colorGroups = groups
        } else {
          guard let groups = groups(token: { $0.fontToken() }) else { return nil }
          preread.fontGroups = groups
        }
        pairs.append(YAMLPair(key: key, value: YAMLNode(.sequence([]), at: location)))
      } else {
        guard let value = events.node() else { return nil }
        pairs.append(YAMLPair(key: key, value: value))
      }
    }
    return events.refused ? nil : YAMLNode(.mapping(pairs), at: start)
  }

  /// A list of `{group, tokens}` mappings, the reader on its start.
  mutating func groups<Token>(token: (inout TokenEventReader) -> Token?) -> [TokenGroup<Token>]? {
    var result: [TokenGroup<Token>] = []
    while events.next(), events.kind != .sequenceEnd {
      guard events.kind == .mappingStart else { return nil }
      var heading: String?
      var sawGroup = false
      var tokens: [Token]?
      while events.next(), events.kind != .mappingEnd {
        guard events.kind == .scalar else { return nil }
        if equals("group") {
          guard !sawGroup, events.next(), events.kind == .scalar else { return nil }
          sawGroup = true
          let slot = slot()
          guard !slot.isNull, !slot.text.contains(where: \.isNewline) else { return nil }
          heading = slot.text.isEmpty ? nil : slot.text
        } else if equals("tokens") {
          guard tokens == nil, events.next(), events.kind == .sequenceStart else { return nil }
          var list: [Token] = []
          while events.next(), events.kind != .sequenceEnd {
            guard let value = token(&self) else { return nil }
            list.append(value)
          }
          tokens = list
        } else {
          return nil
        }
      }
      guard let tokens, !events.refused else { return nil }
      result.append(TokenGroup(heading: heading, tokens: tokens))
    }
    return events.refused ? nil : result
  }

  /// Whether the current scalar is the ASCII `key`, byte for byte. A key is
  /// matched by bytes only, so one past ASCII (which `String` could still
  /// find equal to an allowed key) goes to the checked path.
  func equals(_ key: StaticString) -> Bool {
    let bytes = events.bytes
    guard bytes.count == key.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
    return memcmp(base, key.utf8Start, bytes.count) == 0
  }

  func slot() -> Slot { Slot(text: events.text, plain: events.isPlain, line: events.line, column: events.column) }

  func location(_ slot: Slot) -> SourceLocation { SourceLocation(file: events.file, line: slot.line, column: slot.column) }

  /// Reads one mapping of scalar values under the keys of `allowed` into
  /// `slots`, by key index; the value under the key at `nestedAt`, a
  /// mapping, goes to `nested` (the slot then marks the key alone). False for anything
  /// else, or a key repeated or not allowed.
  mutating func fields(_ allowed: [StaticString], nestedAt: Int = -1, nested: (inout TokenEventReader) -> Bool = { _ in false }) -> Bool {
    guard events.kind == .mappingStart else { return false }
    if slots.count == allowed.count {
      for index in slots.indices { slots[index] = nil }
    } else {
      slots = Array(repeating: nil, count: allowed.count)
    }
    while events.next(), events.kind != .mappingEnd {
      guard events.kind == .scalar, let index = allowed.firstIndex(where: equals), slots[index] == nil else { return false }
      let (line, column) = (events.line, events.column)
      guard events.next() else { return false }
      if events.kind == .scalar {
        slots[index] = slot()
      } else if index == nestedAt, events.kind == .mappingStart {
        slots[index] = Slot(text: "", plain: false, line: line, column: column)
        guard nested(&self) else { return false }
      } else {
        return false
      }
    }
    return !events.refused
  }
}
