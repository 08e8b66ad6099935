import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// A JSON value as a YAML editor's language server sees a YAML document: plain
/// scalars resolved by the YAML 1.2 core schema (null, booleans, numbers), quoted
/// scalars always strings.
indirect enum InstanceValue {
  case null
  case bool(Bool)
  case integer(Int)
  case number(Double)
  case string(String)
  case array([InstanceValue])
  case object([(String, InstanceValue)])

  init(_ node: YAMLNode) {
    switch node.kind {
    case .sequence(let items): self = .array(items.map(InstanceValue.init))
    case .mapping(let pairs): self = .object(pairs.map { ($0.key.scalar ?? "", InstanceValue($0.value)) })
    case .scalar(let text, plain: false): self = .string(text)
    case .scalar(let text, plain: true):
      if node.isNull {
        self = .null
      } else if ["true", "True", "TRUE"].contains(text) {
        self = .bool(true)
      } else if ["false", "False", "FALSE"].contains(text) {
        self = .bool(false)
      } else if text.range(of: "^[-+]?[0-9]+$", options: .regularExpression) != nil, let number = Int(text) {
        self = .integer(number)
      } else if text.range(of: "^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$", options: .regularExpression) != nil, let number = Double(text) {
        self = .number(number)
      } else {
        self = .string(text)
      }
    }
  }
}

/// A JSON Schema (draft-07) validator for exactly the keywords `ManifestSchema`
/// emits. A keyword it does not know is an error, not a silent pass, so the
/// schema cannot grow past what this checks without a test failing.
struct SchemaValidator {
  let root: [String: Any]

  init(schemaText: String) throws {
    root = try #require(try JSONSerialization.jsonObject(with: Data(schemaText.utf8)) as? [String: Any])
  }

  static let annotations: Set<String> = ["$schema", "title", "description", "definitions"]

  /// Every violation, as `path: what`; empty when `value` is valid.
  func errors(_ value: InstanceValue) -> [String] {
    var found: [String] = []
    check(value, against: root, path: "$", into: &found)
    return found
  }

  private func check(_ value: InstanceValue, against schema: [String: Any], path: String, into found: inout [String]) {
    for (keyword, argument) in schema.sorted(by: { $0.key < $1.key }) {
      if Self.annotations.contains(keyword) { continue }
      switch keyword {
      case "$ref":
        let name = (argument as! String).replacingOccurrences(of: "#/definitions/", with: "")
        let definitions = root["definitions"] as! [String: Any]
        check(value, against: definitions[name] as! [String: Any], path: path, into: &found)
      case "allOf":
        for sub in argument as! [[String: Any]] { check(value, against: sub, path: path, into: &found) }
      case "anyOf", "oneOf":
        let passing = (argument as! [[String: Any]]).filter { sub in
          var inner: [String] = []
          check(value, against: sub, path: path, into: &inner)
          return inner.isEmpty
        }.count
        if keyword == "anyOf" ? passing == 0 : passing != 1 { found.append("\(path): \(keyword) matched \(passing)") }
      case "type":
        let types = (argument as? [String]) ?? [argument as! String]
        if !types.contains(where: { Self.has(value, type: $0) }) { found.append("\(path): not \(types.joined(separator: "|"))") }
      case "enum":
        let options = argument as! [Any]
        let matches = options.contains { option in
          if case .integer(let n) = value, let o = option as? Int { return n == o }
          if case .string(let s) = value, let o = option as? String { return s == o }
          return false
        }
        if !matches { found.append("\(path): not one of \(options)") }
      case "pattern":
        if case .string(let text) = value, text.range(of: argument as! String, options: .regularExpression) == nil {
          found.append("\(path): \"\(text)\" does not match \(argument)")
        }
      case "minimum", "maximum", "exclusiveMinimum":
        let limit = (argument as! NSNumber).doubleValue
        let number: Double?
        switch value {
        case .integer(let n): number = Double(n)
        case .number(let n): number = n
        default: number = nil
        }
        if let number {
          let ok = keyword == "minimum" ? number >= limit : keyword == "maximum" ? number <= limit : number > limit
          if !ok { found.append("\(path): \(number) breaks \(keyword) \(limit)") }
        }
      case "minLength":
        if case .string(let text) = value, text.count < (argument as! Int) { found.append("\(path): shorter than \(argument)") }
      case "uniqueItems":
        // Scalars only, which is all the manifest's schema asks it of (`outputs:`).
        if case .array(let items) = value, argument as? Bool == true {
          let texts = items.compactMap { item -> String? in if case .string(let text) = item { return text } else { return nil } }
          if Set(texts).count < texts.count { found.append("\(path): items not unique") }
        }
      case "minItems":
        if case .array(let items) = value, items.count < (argument as! Int) { found.append("\(path): fewer than \(argument) items") }
      case "required":
        if case .object(let members) = value {
          for key in argument as! [String] where !members.contains(where: { $0.0 == key }) { found.append("\(path): missing \(key)") }
        }
      case "properties":
        if case .object(let members) = value {
          let properties = argument as! [String: Any]
          for (key, member) in members {
            if let sub = properties[key] as? [String: Any] { check(member, against: sub, path: "\(path).\(key)", into: &found) }
          }
        }
      case "additionalProperties":
        if case .object(let members) = value {
          let known = Set((schema["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
          for (key, member) in members where !known.contains(key) {
            if let allowed = argument as? Bool {
              if !allowed { found.append("\(path): unknown key \(key)") }
            } else {
              check(member, against: argument as! [String: Any], path: "\(path).\(key)", into: &found)
            }
          }
        }
      case "propertyNames":
        if case .object(let members) = value {
          for (key, _) in members { check(.string(key), against: argument as! [String: Any], path: "\(path)[\(key)]", into: &found) }
        }
      case "items":
        if case .array(let items) = value {
          for (index, item) in items.enumerated() { check(item, against: argument as! [String: Any], path: "\(path)[\(index)]", into: &found) }
        }
      default:
        found.append("\(path): the test validator does not know the keyword '\(keyword)'")
      }
    }
  }

  static func has(_ value: InstanceValue, type: String) -> Bool {
    switch (value, type) {
    case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"): return true
    case (.integer, "integer"), (.integer, "number"), (.number, "number"): return true
    case (.number(let n), "integer"): return n.rounded() == n
    default: return false
    }
  }
}
