import DuetSupport
import Foundation

/// The one encoder of every `--json` report: a report is an `Encodable` value, and
/// this adds `"schemaVersion": 2` and prints it the way duet always has, so
/// scripts and doc transcripts see the same bytes whichever command printed them.
///
/// Foundation's `JSONEncoder` with sorted keys prints what `JSONSerialization`
/// printed before reports were values (`"key" : value`, two-space indentation,
/// `/` unescaped, `0.5` not `0.50000001`, an empty list as `[`, blank line, `]`),
/// measured on Linux with Swift 6.3. The one difference is the key order:
/// `JSONEncoder` sorts by code point, `JSONSerialization` ignored case and read
/// digits as numbers; every key duet prints sorts the same both ways
/// (`ReportJSONTests` checks it), so a new key such as `aB` beside `aa` would need a look.
package enum ReportJSON {
  /// The version of every report's shape; a script reads it before anything else.
  /// 2: every time is an ISO 8601 string with offset (`verify --json`'s
  /// attempts had seconds since 1970 as numbers).
  static let schemaVersion = 2

  /// The report (a struct, printed as an object) as pretty-printed JSON with
  /// `schemaVersion`, without a final newline.
  package static func text<Report: Encodable>(_ report: Report) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    // Only a non-finite number fails to encode; no report holds one, but a script
    // still gets an object it can read the version from.
    guard let data = try? encoder.encode(Versioned(report: report)) else {
      return "{\n  \"schemaVersion\" : \(schemaVersion)\n}"
    }
    return escapingSeparators(String(decoding: data, as: UTF8.self))
  }

  /// JSON text with every character a terminal or log would act on (U+2028,
  /// U+2029, DEL, C1 controls, bidirectional overrides) written as a `\uXXXX`
  /// escape. JSON allows them raw, but the console escapes them for the
  /// terminal into `\u{2028}`, which is not JSON; escaped here, the text is
  /// valid JSON and nothing is left for the console to change. They can only
  /// stand inside strings (the structure is ASCII), and `\n` and `\t` there are
  /// escaped by the encoder already, so the structure's own line breaks stay.
  package static func escapingSeparators(_ json: String) -> String {
    guard json.unicodeScalars.contains(where: { $0 != "\n" && $0 != "\t" && ControlText.needsEscape($0) }) else { return json }
    var out = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      if scalar != "\n" && scalar != "\t" && ControlText.needsEscape(scalar) {
        let hex = String(scalar.value, radix: 16)
        out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// A report with `schemaVersion` among its keys.
  private struct Versioned<Report: Encodable>: Encodable {
    var report: Report
    enum Key: String, CodingKey { case schemaVersion }

    func encode(to encoder: Encoder) throws {
      try report.encode(to: encoder)
      var container = encoder.container(keyedBy: Key.self)
      try container.encode(ReportJSON.schemaVersion, forKey: .schemaVersion)
    }
  }
}
