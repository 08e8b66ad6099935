import XCTest
@testable import Sample

final class SampleTests: XCTestCase {
  func testAdds() { XCTAssertEqual(add(1, 1), 2) }
  func testFails() { XCTAssertEqual(add(2, 2), 5, "arithmetic is broken") }
  func testSkipped() throws { throw XCTSkip("not on this platform") }
}
