import XCTest
@testable import HomeFeature

final class HomeScenarioTests: XCTestCase {
  func testAppearingCountsAVisit() {
    XCTAssertEqual(reduce(HomeState(), .appeared).visits, 1)
  }
}
