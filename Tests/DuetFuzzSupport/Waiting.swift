import Foundation

/// Waits for an event the test can observe (a file written, a line printed, a
/// process gone) instead of sleeping a fixed time: on a loaded two-core CI a
/// fixed sleep is either too short (a flaky failure) or wasted. `condition` is
/// checked every 10 ms until it holds or `seconds` (generous by default) pass;
/// returns whether it held. The one place the tests poll.
package func eventually(within seconds: Double = 30, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    if Date() > deadline { return false }
    usleep(10_000)  // the poll interval
  }
  return true
}

/// Whether the file at `path` holds a whole pid line (`echo $! > x.pid` writes
/// the digits and the line feed in one write, but the file exists before it).
package func pidWritten(_ path: String) -> Bool {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n") else { return false }
  return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) != nil
}
