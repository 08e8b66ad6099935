import Foundation
import DuetModel
import DuetSupport

/// The tokens of a DTCG file in file order: each with its path, the `$type`
/// it declares or inherits from its groups, its `$value`, `$description` and
/// duet's `$extensions`. Groups and tokens are told apart as the format says:
/// an object with `$value` is a token, any other object is a group.
struct DTCGToken {
  let path: [String]
  var type: String?
  var value: JSONValue
  var description: String?
  /// The members of `$extensions["dev.duet"]`; other vendors' extensions are theirs and are not read.
  var duet: [String: JSONValue]
  var location: SourceLocation
  /// `path` joined with dots: the key every table and message uses, joined once.
  let dotted: String

  init(path: [String], type: String?, value: JSONValue, description: String?, duet: [String: JSONValue], location: SourceLocation) {
    self.path = path
    self.type = type
    self.value = value
    self.description = description
    self.duet = duet
    self.location = location
    self.dotted = path.joined(separator: ".")
  }
}

enum DTCGTree {
  /// The vendor key under `$extensions` that duet reads.
  static let extensionKey = "dev.duet"
  static let groupProperties: Set<String> = ["$type", "$description", "$extensions", "$deprecated", "$schema"]
  static let tokenProperties: Set<String> = ["$value", "$type", "$description", "$extensions", "$deprecated"]

  /// Every token of `document` in file order; problems are added to `diagnostics`.
  static func tokens(_ document: JSONDocument, diagnostics: inout DiagnosticList) -> [DTCGToken] {
    guard case .object(let members) = document.root else {
      diagnostics.add("a DTCG file must hold one object of groups and tokens, got \(document.root.summary)", at: document.location([]))
      return []
    }
    var result: [DTCGToken] = []
    walk(members, path: [], order: document.keyOrder, inherited: nil, document: document, into: &result, diagnostics: &diagnostics)
    return result
  }

  /// `order` is the key order of `members`' object, passed down with it.
  private static func walk(
    _ members: [String: JSONValue], path: [String], order: KeyOrder?, inherited: String?, document: JSONDocument,
    into result: inout [DTCGToken], diagnostics: inout DiagnosticList
  ) {
    let here = path.isEmpty ? "the file's top level" : "group \(path.joined(separator: "."))"
    var type = inherited
    if let declared = members["$type"] {
      if case .string(let text) = declared { type = text } else {
        diagnostics.add("\(here): $type must be a string, got \(declared.summary)", at: document.location(path + ["$type"]))
      }
    }
    for key in document.keys(in: order, of: members) {
      let value = members[key]!
      let childPath = path + [key]
      if key.hasPrefix("$") {
        if !groupProperties.contains(key) {
          diagnostics.add(
            "\(here): unknown property '\(key)'\(Suggestion.hint(for: key, in: Array(groupProperties).sorted())) (a group may hold \(groupProperties.sorted().joined(separator: ", ")), groups and tokens)",
            at: document.location(childPath))
        }
        continue
      }
      if key.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) {
        diagnostics.add("\(childPath.joined(separator: ".")): a name may not contain '.', '{' or '}' (aliases use them)", at: document.location(childPath))
        continue
      }
      guard case .object(let child) = value else {
        diagnostics.add(
          "\(childPath.joined(separator: ".")): must be a token (an object with $value) or a group (an object), got \(value.summary)",
          at: document.location(childPath))
        continue
      }
      let childOrder = order?.child(key)
      if let tokenValue = child["$value"] {
        let location = document.location(of: key, in: order)
        result.append(token(
          child, value: tokenValue, path: childPath, order: childOrder, location: location, inherited: type, document: document,
          diagnostics: &diagnostics))
      } else {
        walk(child, path: childPath, order: childOrder, inherited: type, document: document, into: &result, diagnostics: &diagnostics)
      }
    }
  }

  /// `order` is the key order of the token's object, `location` where its key starts.
  private static func token(
    _ members: [String: JSONValue], value: JSONValue, path: [String], order: KeyOrder?, location: SourceLocation, inherited: String?,
    document: JSONDocument, diagnostics: inout DiagnosticList
  ) -> DTCGToken {
    var token = DTCGToken(path: path, type: inherited, value: value, description: nil, duet: [:], location: location)
    let dotted = token.dotted
    for key in document.keys(in: order, of: members) where !tokenProperties.contains(key) {
      diagnostics.add(
        "\(dotted): unknown property '\(key)'\(Suggestion.hint(for: key, in: Array(tokenProperties).sorted())) (a token may hold \(tokenProperties.sorted().joined(separator: ", ")))",
        at: document.location(path + [key]))
    }
    if let declared = members["$type"] {
      if case .string(let text) = declared { token.type = text } else {
        diagnostics.add("\(dotted): $type must be a string, got \(declared.summary)", at: document.location(path + ["$type"]))
      }
    }
    if let description = members["$description"] {
      if case .string(let text) = description {
        let trimmed = trimmedText(text)
        token.description = trimmed.isEmpty ? nil : trimmed
      } else {
        diagnostics.add("\(dotted): $description must be a string, got \(description.summary)", at: document.location(path + ["$description"]))
      }
    }
    if let extensions = members["$extensions"] {
      if case .object(let vendors) = extensions {
        if let ours = vendors[extensionKey] {
          if case .object(let fields) = ours { token.duet = fields } else {
            diagnostics.add(
              "\(dotted): $extensions.\(extensionKey) must be an object, got \(ours.summary)",
              at: document.location(path + ["$extensions", extensionKey]))
          }
        }
      } else {
        diagnostics.add("\(dotted): $extensions must be an object, got \(extensions.summary)", at: document.location(path + ["$extensions"]))
      }
    }
    return token
  }
}

/// `text` without leading and trailing whitespace and newlines, as Foundation's
/// `trimmingCharacters(in: .whitespacesAndNewlines)` gives it; Foundation is
/// called only when an end is not plain, since most texts need no trimming.
func trimmedText(_ text: String) -> String {
  guard let first = text.utf8.first, let last = text.utf8.last else { return text }
  func plain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
  if plain(first) && plain(last) { return text }
  return text.trimmingCharacters(in: .whitespacesAndNewlines)
}
