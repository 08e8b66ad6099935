import Testing
@testable import DuetTestReports

@Suite("A runner's build-failure lines, which no quarantined test excuses")
struct BuildFailureLinesTests {
  /// Each runner's line for a failure beyond its tests is one; a test's own failure line is not.
  @Test func buildFailuresAreToldFromTestFailures() {
    let failures = [
      "Execution failed for task ':feature:compileDebugKotlin'.",
      "> Execution failed for task ':app:kaptDebugKotlin'.",
      "Execution failed for task ':app:compileDebugUnitTestKotlin'.",
      "e: file:///src/Cart.kt:12:5 Unresolved reference: x",
      "/src/Cart.swift:12:5: error: cannot find 'x' in scope",
      "error: compile command failed due to signal 6",
      "error: fatalError",
      "error: Exited with unexpected signal code 11",
      "** BUILD FAILED **",
      "** TEST BUILD FAILED **",
      "Testing cancelled because the build failed.",
      "ERROR collecting tests/test_x.py",
      "Interrupted: 1 error during collection",
      "INTERNALERROR> Traceback",
    ]
    for line in failures { #expect(BuildFailureLines.buildFailure(in: line[...]) != nil, "\(line)") }
    let tests = [
      "Execution failed for task ':app:testDebugUnitTest'.",
      "Execution failed for task ':app:connectedDebugAndroidTest'.",
      "Execution failed for task ':shared:allTests'.",
      "Execution failed for task ':test'.",
      "/src/CartTests.swift:12: error: CartTests.testAdd : XCTAssertEqual failed",
      "** TEST FAILED **",
      "FAILED tests/test_x.py::test_x - assert 1 == 2",
      "error: the lane said error: nothing",
      "",
    ]
    for line in tests { #expect(BuildFailureLines.buildFailure(in: line[...]) == nil, "\(line)") }
  }

  /// The scanner finds the line across chunk borders and keeps the first.
  @Test func theScannerReadsLinesAcrossChunks() {
    var scanner = BuildFailureScanner()
    let text = Array("ok\nExecution failed for task ':b:compileKotlin'.\n** BUILD FAILED **\n".utf8)
    for start in stride(from: 0, to: text.count, by: 7) {
      text[start..<min(text.count, start + 7)].withUnsafeBytes { scanner.feed($0) }
    }
    scanner.finish()
    #expect(scanner.found?.why == "Gradle task ':b:compileKotlin' failed")
    var last = BuildFailureScanner()
    Array("** BUILD FAILED **".utf8).withUnsafeBytes { last.feed($0) }
    #expect(last.found == nil)
    last.finish()
    #expect(last.found?.line == "** BUILD FAILED **")
  }
}
