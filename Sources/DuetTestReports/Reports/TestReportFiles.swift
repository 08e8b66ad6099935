import Foundation
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
///
/// The bounds hold per attempt, so one warning says where the reading stopped
/// and how many reports it left: past `maxCases` cases, past `maxTotalBytes`
/// bytes read, or past the deadline (the end of the lane's `timeout:`). A
/// report larger than `maxBytes` is not read at all, with one warning naming it.
package enum TestReportFiles {
  /// The most bytes of one report duet reads (32 MiB); a larger one is not read.
  static let maxBytes = 32 << 20
  /// The most bytes of reports read for one attempt of a lane (128 MiB, four
  /// reports at the bound): what reading can cost a run stays bounded however
  /// many reports a glob matches.
  static let maxTotalBytes = 4 * maxBytes
  /// The most test cases recorded for one attempt of a lane, over all its reports.
  package static let maxCases = 50_000
  /// How far before the attempt's start a report's time may be and still count
  /// as written during it: the kernel stamps files from a coarse clock, up to a
  /// tick (10 ms at 100 Hz) behind the clock duet read the start from.
  static let clockSlack = 0.02

  /// The cases of the reports matching `globs` under `root` written at or after
  /// `since` (seconds since 1970), in path order, read until `deadline` (seconds
  /// since 1970); one warning per report that could not be read whole, and one
  /// where a bound of the attempt stopped the reading.
  package static func read(_ globs: [String], root: URL, since: Double, unchanged before: TestReportSnapshot = TestReportSnapshot(),
                          deadline: Double = .infinity, maxCases: Int = maxCases, maxBytes: Int = maxBytes,
                          maxTotalBytes: Int = maxTotalBytes) -> JUnitReading {
    read(globs, root: root, since: since, unchanged: before, until: ReadingDeadline(wall: deadline),
         bounds: (maxCases, maxBytes, maxTotalBytes))
  }

  static func read(_ globs: [String], root: URL, since: Double, unchanged before: TestReportSnapshot, until deadline: ReadingDeadline,
                   bounds: (cases: Int, bytes: Int, totalBytes: Int)) -> JUnitReading {
    var reading = JUnitReading()
    let written = candidates(globs, root: root, since: since, unchanged: before)
    var budget = bounds.totalBytes
    for (position, path) in written.enumerated() {
      let after = TestReportFiles.left(written.count - position - 1)
      let remaining = bounds.cases - reading.cases.count
      guard remaining > 0 else {
        reading.warnings.append("\(path): not read\(after); the lane's reports already held \(bounds.cases) test cases, the most duet records for one attempt")
        break
      }
      guard !deadline.passed else {
        reading.warnings.append("\(path): not read\(after); the lane's timeout ran out before duet read it")
        break
      }
      var over = false
      guard let (fd, size) = recent(path, root: root, since: since, maxBytes: bounds.bytes, budget: budget, over: &over,
                                    warnings: &reading.warnings) else {
        if over {
          reading.warnings.append("\(path): not read\(after); with the \(ByteCountText.bytes(bounds.totalBytes - budget)) of reports read before it, "
                                  + "it would pass the \(ByteCountText.bytes(bounds.totalBytes)) duet reads for one attempt")
          break
        }
        continue
      }
      budget -= size
      let found = JUnitReader.read(.file(fd, size: size), limit: remaining, until: deadline)
      close(fd)
      reading.cases += found.cases.map { test in
        var test = test
        test.report = path
        return test
      }
      switch found.stop {
      case .cases(let line)?:
        reading.warnings.append("\(path): past \(bounds.cases) test cases, the most duet records for one attempt; duet recorded those up to its line \(line) and read no further\(after)")
        return reading
      case .deadline(let line)?:
        reading.warnings.append("\(path): the lane's timeout ran out as duet read it; duet recorded the test cases up to its line \(line) and read no further\(after)")
        return reading
      case nil:
        if let warning = found.warning { reading.warnings.append("\(path): \(warning)") }
      }
    }
    return reading
  }

  /// The files `globs` match that the attempt may have written: changed since
  /// the snapshot (one left as it was is an earlier attempt's, even within the
  /// clock's slack) and modified at or after `since`, less the slack.
  static func candidates(_ globs: [String], root: URL, since: Double, unchanged before: TestReportSnapshot) -> [String] {
    matches(globs, root: root).filter { path in
      let full = root.appendingPathComponent(path).path
      if let stamp = before.stamps[path], stamp == FileStamp.of(full) { return false }
      var info = stat()
      return lstat(full, &info) == 0 && Double(FileStamp.modifiedNanoseconds(info)) / 1e9 >= since - clockSlack
    }
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

  /// The regular file at `path`, open, and its size; nil when it is older
  /// than `since`, cannot be opened (a warning), is larger than `maxBytes` (a
  /// warning; it is not read), or than `budget` (`over`; not read). It is read
  /// up to that size, a chunk at a time (`ReportSource`), never whole.
  static func recent(_ path: String, root: URL, since: Double, maxBytes: Int, budget: Int, over: inout Bool,
                     warnings: inout [String]) -> (Int32, Int)? {
    let fd: Int32
    do {
      guard let url = try PathGuard.regularFile(path, in: root) else { return nil }
      fd = try PathGuard.openRegularFile(atAbsolute: url.path, displayPath: path)
    } catch {
      warnings.append("\(path): \(error)")
      return nil
    }
    var info = stat()
    guard fstat(fd, &info) == 0, Double(FileStamp.modifiedNanoseconds(info)) / 1e9 >= since - clockSlack else {
      close(fd)
      return nil
    }
    let size = Int(info.st_size)
    guard size <= maxBytes else {
      close(fd)
      warnings.append("\(path): not read; it is \(ByteCountText.bytes(size)), larger than \(ByteCountText.bytes(maxBytes)), the most duet reads of one report")
      return nil
    }
    guard size <= budget else {
      close(fd)
      over = true
      return nil
    }
    return (fd, size)
  }

  /// `, nor the 2 reports after it`: what a stop of the attempt's reading left unread.
  static func left(_ count: Int) -> String {
    count == 0 ? "" : count == 1 ? ", nor the 1 report after it" : ", nor the \(count) reports after it"
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
