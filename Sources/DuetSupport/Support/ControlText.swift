/// Log text made safe for reports that are not a terminal: ANSI CSI sequences
/// (`ESC [ … letter`, the colour codes of tool output) dropped, and every other
/// control character but tab and line breaks replaced by U+FFFD, as are the
/// bidirectional overrides, embeddings and isolates, which would reorder the
/// text after them on a rendered page (a step summary, an annotation).
package enum ControlText: Sendable {
  package static func clean(_ value: String) -> String {
    var out = String.UnicodeScalarView()
    var scalars = value.unicodeScalars.makeIterator()
    var pending: Unicode.Scalar? = nil
    while let scalar = pending ?? scalars.next() {
      pending = nil
      if scalar == "\u{1B}" {
        guard let next = scalars.next() else { out.append("\u{FFFD}"); break }
        guard next == "[" else { out.append("\u{FFFD}"); pending = next; continue }
        while let c = scalars.next(), !(0x40...0x7E).contains(c.value) {}
        continue
      }
      switch scalar.value {
      case 0x9, 0xA, 0xD: out.append(scalar)
      case 0x0..<0x20, 0x7F, 0x80..<0xA0: out.append("\u{FFFD}")
      default: out.append(reordersText(scalar) ? "\u{FFFD}" : scalar)
      }
    }
    return String(out)
  }
}

/// The one escaping of tree text (a file name, a folder name, a `requires:`
/// entry, a command, a reason that quotes them) for a line duet prints.
extension ControlText {
  /// `text` on one line with nothing a terminal or a CI log acts on: every line
  /// break (`\n`, `\r`, NEL, LS, PS, VT, FF), every other C0 and C1 control,
  /// DEL, and the bidirectional overrides written as `\n`, `\r`, `\t`, `\0` or
  /// `\u{HEX}`. So a file named `x\n::error::…` cannot start a line, and an
  /// `ESC ]` in a folder name cannot retitle the terminal.
  package static func shown(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\0": out += "\\0"
      default:
        if needsEscape(scalar) {
          out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// Whether `shown` escapes `scalar`.
  package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F, 0x80..<0xA0, 0x2028, 0x2029: return true
    default: return reordersText(scalar)
    }
  }

  /// Whether `scalar` is a bidirectional override, embedding or isolate
  /// (U+202A–U+202E, U+2066–U+2069): rendered, it reorders the text after it,
  /// duet's own words included, so every output language refuses it as it
  /// refuses a control.
  static func reordersText(_ scalar: Unicode.Scalar) -> Bool {
    (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }

  /// `text`, lines duet built, made safe for a terminal as a last guard: `\n`
  /// and tab kept, duet's own colour and erase-line sequences (`ESC [ digits ;
  /// m` or `K`) kept, every other control escaped as `shown` does.
  package static func terminal(_ text: String) -> String {
    let scalars = Array(text.unicodeScalars)
    guard scalars.contains(where: { $0 != "\n" && $0 != "\t" && needsEscape($0) }) else { return text }
    var out = String.UnicodeScalarView()
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "\u{1B}", let end = styleSequenceEnd(scalars, from: index) {
        out.append(contentsOf: scalars[index...end])
        index = end + 1
        continue
      }
      if scalar == "\n" || scalar == "\t" || !needsEscape(scalar) {
        out.append(scalar)
      } else {
        out.append(contentsOf: shown(String(scalar)).unicodeScalars)
      }
      index += 1
    }
    return String(out)
  }

  /// The index of the `m` or `K` ending an `ESC [ digits ;` sequence at `start`.
  private static func styleSequenceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
    guard start + 2 < scalars.count, scalars[start + 1] == "[" else { return nil }
    var index = start + 2
    while index < scalars.count, ("0"..."9").contains(scalars[index]) || scalars[index] == ";" { index += 1 }
    guard index < scalars.count, scalars[index] == "m" || scalars[index] == "K" else { return nil }
    return index
  }
}
