/// Log text made safe for reports that are not a terminal: ANSI CSI sequences
/// (`ESC [ … letter`, the colour codes of tool output) dropped, and every other
/// control character but tab and line breaks replaced by U+FFFD.
public enum ControlText {
  public static func clean(_ value: String) -> String {
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
      default: out.append(scalar)
      }
    }
    return String(out)
  }
}
