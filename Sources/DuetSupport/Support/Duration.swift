import Foundation

/// Durations as people write them: `90s`, `10m`, `1h`, `1h30m`, `7d`, or plain seconds.
package enum DurationText {
  /// The longest duration duet reads anywhere (366 days): past it a number is a
  /// typo or an attack (`99999999999999999999h`), and deadlines computed from it
  /// would overflow.
  static let maxSeconds: Double = 366 * 86400

  /// Seconds for `text`, or nil when it is not a duration of at most `maxSeconds`.
  package static func seconds(_ text: String) -> Double? {
    let text = text.trimmingCharacters(in: .whitespaces)
    guard text.utf8.count <= 64 else { return nil }
    if let plain = Double(text), plain > 0, plain.isFinite { return plain <= maxSeconds ? plain : nil }
    var total = 0.0
    var number = ""
    var sawUnit = false
    for character in text {
      if character.isNumber || character == "." {
        number.append(character)
        continue
      }
      let scale: Double
      switch character {
      case "s": scale = 1
      case "m": scale = 60
      case "h": scale = 3600
      case "d": scale = 86400
      default: return nil
      }
      guard let value = Double(number), value.isFinite else { return nil }
      total += value * scale
      number = ""
      sawUnit = true
    }
    guard number.isEmpty, sawUnit, total > 0, total <= maxSeconds else { return nil }
    return total
  }

  /// `0.12s`, `4.3s`, `2m05s`, `1h02m`: short, for progress lines and tables.
  package static func format(_ seconds: Double) -> String {
    if seconds < 10 { return fixed(seconds, "%.2fs") }
    if seconds < 60 { return fixed(seconds, "%.1fs") }
    let whole = Int(seconds.rounded())
    if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
    return String(format: "%dh%02dm", whole / 3600, (whole % 3600) / 60)
  }

  /// `String(format:)`'s text for one double, from C's `vsnprintf` directly:
  /// Foundation's formatter was most of the cost of a progress line.
  package static func fixed(_ value: Double, _ format: String) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
      _ = withVaList([value]) { vsnprintf(buffer.baseAddress, buffer.count, format, $0) }
      return String(cString: buffer.baseAddress!)
    }
  }

  /// `30m`, `90s`, `1h`: a timeout as the manifest would write it.
  package static func formatTimeout(_ seconds: Double) -> String {
    let whole = Int(seconds)
    if Double(whole) != seconds { return String(format: "%.1fs", seconds) }
    if whole % 3600 == 0 { return "\(whole / 3600)h" }
    if whole % 60 == 0 { return "\(whole / 60)m" }
    return "\(whole)s"
  }
}
