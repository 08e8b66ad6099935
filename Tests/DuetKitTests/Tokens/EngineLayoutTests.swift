import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetSupport
import Foundation
import Testing

/// The engine-layout fixture: a config of ours and the eight files the Duet
/// toolchain's engine would write for it, in the engine's layout.
enum EngineLayoutFixture {
  static let root = TokenFixtures.tests.appendingPathComponent("Fixtures/engine-layout")

  static func plan() throws -> TokenPlan {
    TokenPlan(try TokenConfigLoader.load(root: root))
  }
}

@Suite("duet's token code equals the engine's")
struct EngineLayoutTests {
  /// Every generated file holds the same code as the engine-layout file, token for token,
  /// though not the same bytes (the layouts and words differ).
  @Test func generatedCodeEqualsTheEngines() throws {
    let plan = try EngineLayoutFixture.plan()
    #expect(plan.files.count == 8)
    for file in plan.files {
      let onDisk = try String(contentsOf: EngineLayoutFixture.root.appendingPathComponent(file.path), encoding: .utf8)
      #expect(onDisk != file.contents, "\(file.path) should differ in layout")
      #expect(EngineBanner.recognizes(onDisk), "\(file.path)")
      let difference = CodeComparison.firstDifference(onDisk, file.contents)
      #expect(difference == nil, "\(file.path): line \(difference?.line ?? 0): on disk \(difference?.onDisk ?? "(end)"), generated \(difference?.generated ?? "(end)")")
    }
  }

  /// The Swift value table declares the engine's forms: `FontFamilyToken` beside `FontToken`,
  /// integral sizes as integers, `Color(uiColor:)`, the engine's import order and a private `tokenColor`.
  @Test func swiftTableUsesTheEnginesForms() throws {
    let plan = try EngineLayoutFixture.plan()
    let table = try #require(plan.files.first { $0.path.hasSuffix("MainThemePalette.swift") }).contents
    #expect(table.contains("  public enum FontFamilyToken {"))
    #expect(table.contains("    public let family: FontFamilyToken"))
    #expect(!table.contains("enum Family"))
    #expect(table.contains("        size: 32,\n        lineHeight: 38.5,"))
    #expect(table.contains("Color(uiColor: tokenColor(0xFFF8E1)),"))
    #expect(table.contains("import UIKit\nimport SwiftUI\nimport DuetTheming\n"))
    #expect(table.contains("private func tokenColor(") && !table.contains("fileprivate"))
    #expect(table.contains("CGFloat((rgb >> 16) & 0xff) / 255.0"))
  }

  /// Kotlin stays without trailing commas, so Debian's kotlinc 1.3 compiles it.
  @Test func kotlinHasNoTrailingCommaBeforeAParenthesis() throws {
    let plan = try EngineLayoutFixture.plan()
    for file in plan.files where file.path.hasSuffix(".kt") {
      #expect(file.contents.range(of: #",\s*\)"#, options: .regularExpression) == nil, "\(file.path)")
    }
  }
}
