import Foundation
import DuetCache
import DuetSupport

/// What a lane's `reports:` globs matched as an attempt started, and each
/// file's stamp (device, inode, size, mode, times): a report whose stamp has not
/// changed by the attempt's end was not written by it.
package struct TestReportSnapshot: Sendable, Equatable {
  var stamps: [String: FileStamp] = [:]
  package init() {}
}

/// The reports a lane wrote during one attempt: the files its `reports:` globs
/// match whose modification time is at or after the attempt's start and whose
/// stamp changed since it started (a report an earlier attempt or run left is
/// not read), each read within the bounds.
package enum TestReportFiles {
  /// The most bytes read of one report (32 MiB); a larger one is read that far, with a warning.
  package static let maxBytes = 32 << 20
  /// The most test cases recorded for one attempt of a lane, over all its reports.
  package static let maxCases = 50_000
  /// How far before the attempt's start a report's time may be and still count
  /// as written during it: the kernel stamps files from a coarse clock, up to a
  /// tick (10 ms at 100 Hz) behind the clock duet read the start from.
  package static let clockSlack = 0.02

  /// The cases of the reports matching `globs` under `root` written at or after
  /// `since` (seconds since 1970), in path order; one warning per report that
  /// could not be read whole.
  package static func read(_ globs: [String], root: URL, since: Double, unchanged before: TestReportSnapshot = TestReportSnapshot(),
                          maxCases: Int = maxCases, maxBytes: Int = maxBytes) -> JUnitReading {
    var reading = JUnitReading()
    for path in matches(globs, root: root) {
      // Left as it was when the attempt started: an earlier attempt's, within the clock's slack.
      if let stamp = before.stamps[path], stamp == FileStamp.of(root.appendingPathComponent(path).path) { continue }
      let remaining = maxCases - reading.cases.count
      guard let (bytes, cut) = recent(path, root: root, since: since, maxBytes: maxBytes, warnings: &reading.warnings) else { continue }
      guard remaining > 0 else {
        reading.warnings.append("\(path): not read; the lane's reports already held \(maxCases) test cases, the most duet records for one attempt")
        continue
      }
      let found = JUnitReader.read(bytes, limit: remaining)
      reading.cases += found.cases.map { test in
        var test = test
        test.report = path
        return test
      }
      if cut {
        reading.warnings.append("\(path): it is larger than \(ByteCountText.bytes(maxBytes)); duet read the test cases in its first \(ByteCountText.bytes(maxBytes))")
      } else if let warning = found.warning {
        reading.warnings.append("\(path): \(warning)")
      }
    }
    return reading
  }

  /// The stamps of the files `globs` match now: taken as an attempt starts.
  package static func snapshot(_ globs: [String], root: URL) -> TestReportSnapshot {
    var snapshot = TestReportSnapshot()
    for path in matches(globs, root: root) {
      if let stamp = FileStamp.of(root.appendingPathComponent(path).path) { snapshot.stamps[path] = stamp }
    }
    return snapshot
  }

  /// The files `globs` match under `root`, each once, in path order.
  static func matches(_ globs: [String], root: URL) -> [String] {
    Set(globs.flatMap { Glob($0).expand(in: root, kind: .files) }).sorted(by: Glob.precedes)
  }

  /// The first `maxBytes` of the regular file at `path` and whether there was
  /// more, or nil when it is older than `since` or cannot be read (a warning).
  static func recent(_ path: String, root: URL, since: Double, maxBytes: Int, warnings: inout [String]) -> ([UInt8], Bool)? {
    let fd: Int32
    do {
      guard let url = try PathGuard.regularFile(path, in: root) else { return nil }
      fd = try PathGuard.openRegularFile(atAbsolute: url.path, displayPath: path)
    } catch {
      warnings.append("\(path): \(error)")
      return nil
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, Double(FileStamp.modifiedNanoseconds(info)) / 1e9 >= since - clockSlack else { return nil }
    var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), maxBytes) + 1)
    var count = 0
    while count < bytes.count {
      let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + count, $0.count - count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      count += n
    }
    let cut = count > maxBytes
    return (Array(bytes[0..<min(count, maxBytes)]), cut)
  }
}

/// A byte count as a person reads it: `32 MiB`, `4 KiB`, `100 bytes`.
enum ByteCountText {
  static func bytes(_ count: Int) -> String {
    if count >= 1 << 20 && count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
    if count >= 1 << 10 && count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
    return "\(count) bytes"
  }
}
