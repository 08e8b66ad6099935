import Testing
@testable import DuetTokens
@testable import DuetModel
@testable import DuetSupport

/// `TokenNames.problem` hashes a name into the reserved-word lists only when it
/// is lower-case letters alone (issue 20); that is right only while every
/// reserved word a lowerCamelCase name could be is lower-case letters alone.
@Suite("Token names")
struct TokenNamesTests {
  @Test func reservedWordsANameCouldBeAreLowerCaseLetters() {
    for word in TokenNames.swiftReserved.union(TokenNames.kotlinHardKeywords) where TokenNames.isLowerCamelCase(word) {
      #expect(word.utf8.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }, "\(word)")
    }
  }

  @Test func reservedWordsAreStillRefused() {
    #expect(TokenNames.problem(with: "default")?.contains("reserved word in Swift") == true)
    #expect(TokenNames.problem(with: "val")?.contains("hard keyword in Kotlin") == true)
    #expect(TokenNames.problem(with: "default2") == nil)
    #expect(TokenNames.problem(with: "cardSurface") == nil)
    #expect(TokenNames.problem(with: "Card") != nil)
  }
}
