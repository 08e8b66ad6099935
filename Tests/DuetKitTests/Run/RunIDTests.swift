import Foundation
import Testing
@testable import DuetRun
@testable import DuetHistory

@Suite("Run ids")
struct RunIDTests {
  /// Runs started within one second get ids in start order (log retention keeps
  /// the newest folders by name), each a well-formed run id.
  @Test func idsWithinASecondSortInStartOrder() {
    let second = Date(timeIntervalSince1970: 1_780_000_000)
    let ids = (0..<200).map { VerifyPlan.makeRunID(second.addingTimeInterval(Double($0 * 5) / 1000 + 0.0005)) } + [VerifyPlan.makeRunID(second.addingTimeInterval(0.9999))]
    #expect(ids == ids.sorted())
    #expect(Set(ids.map { $0.prefix(15) }).count == 1)
    #expect(ids.allSatisfy(LogLocation.isRunID), "\(ids.filter { !LogLocation.isRunID($0) }.prefix(3))")
  }
}
