import DuetSupport

/// The lines a test runner prints when something other than a test failed:
/// the build, the collection, the test process itself. Gradle, `swift test`
/// and xcodebuild exit with the same status for a failed test and a failed
/// compile, so a quarantine that sees only quarantined failures in the reports
/// must also see none of these in the log before it excuses the lane: the
/// module that did not compile wrote no report to fail in.
enum BuildFailureLines {
  /// Why `line` says the run failed beyond its tests (`Gradle task
  /// ':app:compileDebugKotlin' failed`), or nil for any other line.
  static func buildFailure(in line: Substring) -> String? {
    let text = line.drop { $0 == " " || $0 == "\t" }
    // Gradle: "Execution failed for task ':app:compileDebugKotlin'." Only a
    // test task (testDebugUnitTest, connectedAndroidTest, jvmTest, allTests)
    // fails for its tests.
    if let range = text.range(of: "Execution failed for task '") {
      let rest = text[range.upperBound...]
      let task = rest.prefix { $0 != "'" }
      let name = task.split(separator: ":").last.map(String.init) ?? String(task)
      if !(name.hasPrefix("test") || name.hasSuffix("Test") || name.hasSuffix("Tests")) {
        return "Gradle task '\(task)' failed"
      }
      return nil
    }
    // Kotlin's compiler, as Gradle prints it: "e: file:///…/Cart.kt:12:5 Unresolved reference".
    if text.hasPrefix("e: ") && (text.contains(".kt:") || text.contains(".kts:")) { return "the Kotlin compiler reported an error" }
    // swiftc: "/path/Cart.swift:12:5: error: …" (a line and a column; an XCTest
    // failure is "/path/CartTests.swift:12: error: -[…]", a line alone).
    if let range = text.range(of: ": error: "), isLineAndColumn(text[..<range.lowerBound]) {
      return "the compiler reported an error"
    }
    // SwiftPM: "error: compile command failed", "error: emit-module command failed", "error: fatalError".
    if text.hasPrefix("error: ") && (text.contains("command failed") || text.hasPrefix("error: fatalError")) {
      return "swift build failed"
    }
    // swift test: the test process crashed ("error: Exited with unexpected signal code 11").
    if text.contains("Exited with unexpected signal code") || text.contains("Exited with signal code") {
      return "the test process crashed"
    }
    // xcodebuild.
    if text.hasPrefix("** BUILD FAILED **") || text.hasPrefix("** TEST BUILD FAILED **") || text.hasPrefix("** BUILD INTERRUPTED **")
      || text.hasPrefix("Testing cancelled because the build failed") {
      return "xcodebuild: the build failed"
    }
    if text.contains("Restarting after unexpected exit, crash, or test timeout") { return "xcodebuild: the test process crashed" }
    // pytest: collection errors, an internal error.
    if text.hasPrefix("ERROR collecting ") || (text.hasPrefix("Interrupted: ") && text.contains("during collection")) {
      return "pytest could not collect the tests"
    }
    if text.hasPrefix("INTERNALERROR>") { return "pytest had an internal error" }
    return nil
  }

  /// Whether `prefix` ends in `:LINE:COLUMN`, as a compiler's diagnostic position does.
  static func isLineAndColumn(_ prefix: Substring) -> Bool {
    let parts = prefix.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count >= 3 else { return false }
    let line = parts[parts.count - 2], column = parts[parts.count - 1]
    return !line.isEmpty && !column.isEmpty && line.allSatisfy(\.isASCII) && line.allSatisfy(\.isNumber)
      && column.allSatisfy(\.isASCII) && column.allSatisfy(\.isNumber)
  }
}

/// Reads a lane's output as it streams and keeps the first line that says the
/// run failed beyond its tests (`BuildFailureLines`). Bounded: a line is
/// judged by its first `maxLine` bytes.
package struct BuildFailureScanner: Sendable {
  static let maxLine = 4096
  private var lines = StreamedLines(limit: maxLine)
  /// The first build failure seen: why, and the line (cut to 200 characters).
  package private(set) var found: (why: String, line: String)?

  package init() {}

  package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
    guard found == nil else { return }
    var hit: (why: String, line: String)?
    _ = lines.feed(bytes) { line in hit = Self.judge(line); return hit != nil }
    found = hit
  }

  /// Judges what is left once the output has ended.
  package mutating func finish() {
    guard found == nil else { return }
    var hit: (why: String, line: String)?
    _ = lines.finish { line in hit = Self.judge(line); return hit != nil }
    found = hit
  }

  private static func judge(_ line: [UInt8]) -> (why: String, line: String)? {
    let text = String(decoding: line, as: UTF8.self)
    guard let why = BuildFailureLines.buildFailure(in: text[...]) else { return nil }
    let trimmed = text.trimmingLeadingBlanks
    return (why, trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed)
  }
}

extension String {
  fileprivate var trimmingLeadingBlanks: String { String(drop { $0 == " " || $0 == "\t" }) }
}
