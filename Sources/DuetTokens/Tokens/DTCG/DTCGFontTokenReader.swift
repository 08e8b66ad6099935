import DuetModel
import DuetSupport

/// Reads one DTCG typography token's `$value` object into a `FontToken`, one
/// method per field. Problems are reported through the `DTCGReader` each
/// method is handed, in the order the fields are read, so the messages come
/// out as they always have.
struct DTCGFontTokenReader {
  let token: DTCGToken
  let members: [String: JSONValue]
  /// False once a problem is reported that leaves no token even where every
  /// field has a value (a missing member, a bad extension).
  private(set) var valid = true

  /// The font token named `name`, or nil when any field is missing or wrong.
  mutating func read(name: String, _ reader: inout DTCGReader) -> FontToken? {
    reportUnknownKeys(&reader)
    let family = family(&reader)
    let size = size(&reader)
    let weight = weight(&reader)
    let lineHeight = lineHeight(size: size, &reader)
    let tracking = tracking(size: size, &reader)
    let axes = axes(&reader)
    let textStyle = textStyle(&reader)
    guard let note = reader.note(token) else {
      reader.diagnostics.add("\(token.dotted): $extensions.\(DTCGTree.extensionKey).note must be a string", at: token.location)
      return nil
    }
    guard valid, let family, let size, let weight, let lineHeight, let tracking else { return nil }
    return FontToken(
      name: name, doc: token.description, note: note, family: family, weight: weight, size: size, lineHeight: lineHeight,
      tracking: tracking, opticalSize: axes["opticalSize"], softness: axes["softness"], width: axes["width"], textStyle: textStyle)
  }

  private func reportUnknownKeys(_ reader: inout DTCGReader) {
    let keys = DTCGReader.typographyKeys
    for key in members.keys.sorted() where !keys.contains(key) {
      reader.diagnostics.add(
        "\(token.dotted): $value has an unknown key '\(key)'\(Suggestion.hint(for: key, in: keys)) (a typography value holds \(keys.joined(separator: ", ")))",
        at: token.location)
    }
  }

  // MARK: Members

  /// A member with its alias followed; nil when it is absent or its alias is
  /// broken (which the reader reports).
  private func member(_ key: String, _ reader: inout DTCGReader) -> JSONValue? {
    guard let raw = members[key] else { return nil }
    if case .string(let text) = raw, let target = TokenAlias.target(of: text) {
      return reader.resolved(alias: target, .light, in: token)
    }
    return raw
  }

  /// A member every typography value holds: its absence is reported, and
  /// either way the token is not made.
  private mutating func require(_ key: String, _ reader: inout DTCGReader) -> JSONValue? {
    if members[key] == nil {
      reader.diagnostics.add("\(token.dotted): $value is missing '\(key)'", at: token.location)
      valid = false
      return nil
    }
    let value = member(key, &reader)
    if value == nil { valid = false }
    return value
  }

  // MARK: Fields

  private mutating func family(_ reader: inout DTCGReader) -> FontFamily? {
    guard let value = require("fontFamily", &reader) else { return nil }
    switch DTCGValues.fontFamily(value) {
    case .success(let parsed): return parsed
    case .failure(let expected):
      reader.misfit(token, field: "fontFamily", expected, got: value)
      return nil
    }
  }

  /// The size in points, above 0.
  private mutating func size(_ reader: inout DTCGReader) -> Double? {
    guard let value = require("fontSize", &reader) else { return nil }
    guard let points = reader.part(value, type: "dimension", token: token, field: "fontSize") else { return nil }
    if points <= 0 {
      reader.diagnostics.add("\(token.dotted): $value.fontSize must be above 0", at: token.location)
      return nil
    }
    return points
  }

  private mutating func weight(_ reader: inout DTCGReader) -> Int? {
    guard let value = require("fontWeight", &reader) else { return nil }
    switch DTCGValues.fontWeight(value) {
    case .success(let parsed): return parsed
    case .failure(let expected):
      reader.misfit(token, field: "fontWeight", expected, got: value)
      return nil
    }
  }

  /// The line height in points: a dimension, or a number that multiplies the
  /// font size (nil, unreported, when the size is wrong).
  private mutating func lineHeight(size: Double?, _ reader: inout DTCGReader) -> Double? {
    guard let value = require("lineHeight", &reader) else { return nil }
    if case .number(let multiple) = value, multiple > 0 {
      return size.map { DTCGValues.rounded($0 * multiple) }
    } else if case .success(.points(let points)) = DTCGValues.dimension(value), points > 0 {
      return points
    }
    reader.misfit(token, field: "lineHeight", "a number above 0 (a multiple of the font size) or a dimension", got: value)
    return nil
  }

  /// The letter spacing in ems, 0 when absent; a dimension in points is
  /// divided by the font size.
  private func tracking(size: Double?, _ reader: inout DTCGReader) -> Double? {
    guard members["letterSpacing"] != nil else { return 0 }
    guard let value = member("letterSpacing", &reader) else { return nil }
    switch DTCGValues.dimension(value, allowEm: true) {
    case .success(.em(let em)): return em
    case .success(.points(let points)): return size.map { DTCGValues.rounded(points / $0, places: 6) }
    case .failure(let expected):
      reader.misfit(token, field: "letterSpacing", expected, got: value)
      return nil
    }
  }

  // MARK: Extensions

  /// The variable-font axes the token's `dev.duet` extensions set.
  private mutating func axes(_ reader: inout DTCGReader) -> [String: Double] {
    var axes: [String: Double] = [:]
    for axis in ["opticalSize", "softness", "width"] {
      guard let value = token.duet[axis] else { continue }
      if case .number(let number) = value { axes[axis] = number } else {
        reader.diagnostics.add(
          "\(token.dotted): $extensions.\(DTCGTree.extensionKey).\(axis) must be a number, got \(value.summary)", at: token.location)
        valid = false
      }
    }
    return axes
  }

  /// The Dynamic Type style the font scales against; required when a swift
  /// target is declared.
  private mutating func textStyle(_ reader: inout DTCGReader) -> String? {
    guard let value = token.duet["textStyle"] else {
      if reader.needsTextStyle {
        reader.diagnostics.add(
          "\(token.dotted): missing $extensions.\(DTCGTree.extensionKey).textStyle (a swift target is declared, so every type token needs the Dynamic Type style it scales against, e.g. \"body\")",
          at: token.location)
        valid = false
      }
      return nil
    }
    if case .string(let text) = value, TextStyles.all.contains(text) { return text }
    let hint = { if case .string(let text) = value { return Suggestion.hint(for: text, in: TextStyles.all) } else { return "" } }()
    reader.diagnostics.add(
      "\(token.dotted): $extensions.\(DTCGTree.extensionKey).textStyle must be one of \(TextStyles.all.joined(separator: ", ")), got \(value.summary)\(hint)",
      at: token.location)
    valid = false
    return nil
  }
}
