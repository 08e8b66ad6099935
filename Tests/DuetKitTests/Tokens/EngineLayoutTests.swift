@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
import Foundation
import Testing

/// The engine-layout fixture: a config of ours and the eight files the Duet
/// toolchain's engine would write for it, in the engine's layout.
enum EngineLayoutFixture {
  static let root = TokenFixtures.tests.appendingPathComponent("Fixtures/engine-layout")
  /// Tutorial 7's config and its six files in the engine's layout.
  static let foyer = TokenFixtures.tests.appendingPathComponent("Fixtures/engine-layout-foyer")

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

@Suite("duet writes the engine's layout byte for byte (issue 30)")
struct EngineLayoutBytesTests {
  /// For both engine-layout fixtures, every file duet writes in the engine's layout (the
  /// engine's words read from the file itself) equals the fixture file byte for byte.
  @Test func engineLayoutEqualsTheFixturesByteForByte() throws {
    for root in [EngineLayoutFixture.root, EngineLayoutFixture.foyer] {
      let config = try TokenConfigLoader.load(root: root)
      let files = EngineLayout.files(TokenPlan(config), config: config, root: root)
      #expect(files.count == (config.gradients.isEmpty ? 6 : 8))
      for file in files {
        let onDisk = try String(contentsOf: root.appendingPathComponent(file.path), encoding: .utf8)
        let difference = zip(onDisk.components(separatedBy: "\n"), file.contents.components(separatedBy: "\n"))
          .enumerated().first { $0.element.0 != $0.element.1 }
        #expect(file.contents == onDisk, "\(file.path): line \((difference?.offset ?? -1) + 1): \(difference.map { "\($0.element.0) / \($0.element.1)" } ?? "length")")
      }
    }
  }

  /// No line that depends on the config comes from the file on disk: with every token
  /// renamed, no old name is left, and the engine's words and banner still are.
  @Test func tokenLinesAreGeneratedNotCopied() throws {
    let root = EngineLayoutFixture.root
    let text = try String(contentsOf: root.appendingPathComponent(TokenConfig.defaultPath), encoding: .utf8)
    let renamed = text.components(separatedBy: "\n").map { $0.contains("- name: ") ? $0 + "Zz" : $0 }.joined(separator: "\n")
    let config = try TokenConfigLoader.parse(renamed, path: TokenConfig.defaultPath)
    for file in EngineLayout.files(TokenPlan(config), config: config, root: root) {
      #expect(!file.contents.contains("inkPrimary\n") && !file.contents.contains("inkPrimary,") && !file.contents.contains(".inkPrimary:"), "\(file.path)")
      #expect(file.contents.contains("Zz"), "\(file.path)")
      #expect(file.contents.hasPrefix("// Copyright (c) 2026 Modaal.dev\n\n// GENERATED by `duet design-tokens`"), "\(file.path)")
      #expect(file.contents.contains("Fixture comment:"), "\(file.path)")
    }
  }

  /// Without a file the engine wrote, a target keeps duet's layout: the plan comes back as it is.
  @Test func aTreeWithoutEngineFilesKeepsDuetsLayout() throws {
    let config = try TokenConfigLoader.load(root: EngineLayoutFixture.root)
    let plan = TokenPlan(config)
    let empty = try TemporaryFolder()
    #expect(EngineLayout.files(plan, config: config, root: empty.url) == plan.files)
  }

  /// `EngineProse` keeps the lines before the first code as the banner and each
  /// documentation block under the declaration it documents; an extension is told
  /// apart by its first member, and a `//` comment is not documentation.
  @Test func proseReadsBannerAndBlocks() {
    let text = """
      // Copyright (c) 2026 Modaal.dev

      // GENERATED by `duet design-tokens` from x —

      #if os(iOS)

      /// First table.
      extension T {
        public typealias _ColorAsset = SemanticColor
      }

      /// Second table,
      /// two lines.
      extension T {
        public typealias _FontAsset = SemanticFont

        // A note, not documentation.
        case .x:
      }

      /**
       * A KDoc.
       */
      enum class SemanticColor {
      """
    let prose = EngineProse.read(text)
    #expect(prose.banner == ["// Copyright (c) 2026 Modaal.dev", "", "// GENERATED by `duet design-tokens` from x —"])
    #expect(prose.block("extension T {", next: "public typealias _ColorAsset = SemanticColor") == ["/// First table."])
    #expect(prose.block("extension T {", next: "public typealias _FontAsset = SemanticFont") == ["/// Second table,", "/// two lines."])
    #expect(prose.block("case .x:") == [])
    #expect(prose.block("enum class SemanticColor {") == ["/**", " * A KDoc.", " */"])
  }
}
