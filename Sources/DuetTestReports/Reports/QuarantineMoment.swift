import Foundation

/// When an entry was added, to the second in UTC, as `added:` holds it
/// (`2026-12-06T12:03:00Z`): `suggest` counts only the runs that started from
/// it, so this morning's passes cannot release an entry written at noon. A
/// plain day (`2026-12-06`, from a file written before duet kept the time)
/// still reads, as the start of that day, and is written back as it was.
package struct QuarantineMoment: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Seconds since 1970, UTC.
  let seconds: Int64
  /// Written as a day alone: the moment is that day's first second.
  package let isDay: Bool

  /// `date` rounded up to the next whole second: a run that started in the
  /// same second but before the entry was written is never counted after it.
  package init(_ date: Date) {
    self.init(seconds: Int64(date.timeIntervalSince1970.rounded(.up)))
  }

  /// The first second of `day` (a file's plain `added: YYYY-MM-DD`).
  init(day: QuarantineDate) {
    seconds = Int64(day.start)
    isDay = true
  }

  /// Nil unless `text` is `YYYY-MM-DDTHH:MM:SSZ` (a real day, a real time of
  /// day, UTC) or a plain `YYYY-MM-DD`.
  init?(_ text: String) {
    if let day = QuarantineDate(text) {
      self.init(day: day)
    } else if let seconds = QuarantineMoment.seconds(text) {
      self.init(seconds: seconds)
    } else {
      return nil
    }
  }

  private init(seconds: Int64) {
    self.seconds = seconds
    isDay = false
  }

  /// The seconds since 1970 of `YYYY-MM-DDTHH:MM:SSZ`; nil for any other text.
  private static func seconds(_ text: String) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
          bytes[19] == UInt8(ascii: "Z"), let day = QuarantineDate(String(decoding: bytes[0..<10], as: UTF8.self)),
          let hour = QuarantineMoment.number(bytes[11..<13]), let minute = QuarantineMoment.number(bytes[14..<16]),
          let second = QuarantineMoment.number(bytes[17..<19]), hour < 24, minute < 60, second < 60 else { return nil }
    return Int64(day.start) + Int64(hour * 3600 + minute * 60 + second)
  }

  private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
    return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }

  /// Where a count of runs "since" it starts, in seconds since 1970.
  package var start: Double { Double(seconds) }

  /// The day (UTC) it falls on.
  var day: QuarantineDate { QuarantineDate(Date(timeIntervalSince1970: start)) }

  package static func < (a: QuarantineMoment, b: QuarantineMoment) -> Bool { a.seconds < b.seconds }

  /// As the file holds it: the day alone when it was read so, else `YYYY-MM-DDTHH:MM:SSZ`.
  package var description: String {
    if isDay { return day.description }
    let inDay = ((seconds % 86_400) + 86_400) % 86_400
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(day)T\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))Z"
  }
}
