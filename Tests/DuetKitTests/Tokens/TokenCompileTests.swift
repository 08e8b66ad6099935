@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport
@testable import DuetFuzzSupport
import Foundation
import Testing

/// Runs a program found on `PATH` and returns its exit status and merged output.
private func run(_ program: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = [program] + arguments
  if let directory { process.currentDirectoryURL = directory }
  if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The stub modules `UIKit`, `SwiftUI` and `DuetTheming`, built once per test from fixture sources.
private struct SwiftStubs {
  let modules: URL

  init(in folder: URL) throws {
    modules = folder.appendingPathComponent("modules")
    try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
    for name in ["UIKit", "SwiftUI", "DuetTheming"] {
      let source = TokenFixtures.stubs.appendingPathComponent("swift/\(name).swift").path
      let result = try run("swiftc", [
        "-parse-as-library", "-emit-module", "-module-name", name, "-I", modules.path,
        "-emit-module-path", modules.appendingPathComponent("\(name).swiftmodule").path, source,
      ])
      guard result.status == 0 else { throw StubFailure(output: "stub \(name) does not build:\n\(result.output)") }
    }
  }

  /// Type-checks the theme fixture (none for the swiftui style) and the generated files as one module; nil when it passes.
  func typecheck(theme: String?, files: [GeneratedFile], in folder: URL) throws -> String? {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var paths = theme.map { [TokenFixtures.stubs.appendingPathComponent("swift/\($0).swift").path] } ?? []
    for file in files {
      let url = folder.appendingPathComponent((file.path as NSString).lastPathComponent)
      try Data(SwiftCompileInput.droppingIOSGuard(file.contents).utf8).write(to: url)
      paths.append(url.path)
    }
    let result = try run("swiftc", ["-typecheck", "-parse-as-library", "-module-name", "Theming", "-I", modules.path] + paths)
    return result.status == 0 ? nil : result.output
  }
}

private struct StubFailure: Error, CustomStringConvertible {
  var output: String
  var description: String { output }
}

/// Linux is not iOS: the test drops the guard's two lines so the compiler sees the body.
enum SwiftCompileInput {
  static func droppingIOSGuard(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { $0 != "#if os(iOS)" && $0 != "#endif" }
      .joined(separator: "\n")
  }
}

/// JVM options for one short kotlinc run: the JIT's first tier only and one GC
/// thread. The same compiler checks the same files in half the time; a
/// `JAVA_OPTS` of the caller's own wins.
enum KotlinJVM {
  static var quickStart: [String: String] {
    ProcessInfo.processInfo.environment["JAVA_OPTS"] != nil ? [:] : ["JAVA_OPTS": "-Xmx256M -Xms32M -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"]
  }
}

@Suite("design tokens: real compilers")
struct TokenCompileTests {
  func swiftFiles(_ fixture: String) throws -> [GeneratedFile] {
    TokenPlan(try TokenFixtures.config(fixture)).files.filter { $0.path.hasSuffix(".swift") }
  }

  func foyerFiles() throws -> [GeneratedFile] {
    TokenPlan(try TokenConfigLoader.load(root: TokenFixtures.foyer)).files
  }

  /// The generated Swift type-checks against the stub engine, UIKit and SwiftUI: the full fixture (with gradients),
  /// the minimal one (empty font vocabulary) and the Foyer example; and dropping an import or adding a type error
  /// inside the guard fails, which proves the guard was really dropped and no stub re-exports another.
  @Test func generatedSwiftTypeChecks() throws {
    let work = try TokenTempTree()
    let stubs = try SwiftStubs(in: work.root)

    let full = try swiftFiles("full")
    let fullResult = try stubs.typecheck(theme: "MainTheme", files: full, in: work.root.appendingPathComponent("full"))
    #expect(fullResult == nil, "\(fullResult ?? "")")
    let minimal = try stubs.typecheck(theme: "MainThemeWithoutGradients", files: try swiftFiles("minimal"), in: work.root.appendingPathComponent("minimal"))
    #expect(minimal == nil, "\(minimal ?? "")")
    let themed = try stubs.typecheck(theme: "MainThemeWithoutGradients", files: try swiftFiles("themed"), in: work.root.appendingPathComponent("themed"))
    #expect(themed == nil, "\(themed ?? "")")
    // A theme's mapping misses a token: the exhaustive switch must not compile.
    var partial = try swiftFiles("themed")
    let mapping = try #require(partial.firstIndex { $0.path.hasSuffix("SemanticColor+Dimmed.swift") })
    partial[mapping].contents = partial[mapping].contents.replacingOccurrences(of: "case .pageBackground:\n      return .pageBackground\n", with: "")
    #expect(!partial[mapping].contents.contains("case .pageBackground:"))
    let partialResult = try stubs.typecheck(theme: "MainThemeWithoutGradients", files: partial, in: work.root.appendingPathComponent("partial"))
    #expect(partialResult?.contains("must be exhaustive") == true, "\(partialResult ?? "passed")")
    // The plain SwiftUI style and the engine style's spacing scale. The stub's `Font.TextStyle` has only SwiftUI's
    // names, so a UIKit name left unmapped (`.title1`, `.caption1`) fails here.
    let plain = try stubs.typecheck(theme: nil, files: try swiftFiles("plain"), in: work.root.appendingPathComponent("plain"))
    #expect(plain == nil, "\(plain ?? "")")
    let swiftOnly = try stubs.typecheck(theme: "MainThemeWithoutGradients", files: try swiftFiles("swift-only"), in: work.root.appendingPathComponent("swift-only"))
    #expect(swiftOnly == nil, "\(swiftOnly ?? "")")
    var unmapped = try swiftFiles("plain")
    let fonts = try #require(unmapped.firstIndex { $0.path.hasSuffix(SwiftUIEmitter.fontFileName) })
    unmapped[fonts].contents = unmapped[fonts].contents.replacingOccurrences(of: "textStyle: .title)", with: "textStyle: .title1)")
    #expect(unmapped[fonts].contents.contains(".title1)"))
    let unmappedResult = try stubs.typecheck(theme: nil, files: unmapped, in: work.root.appendingPathComponent("unmapped"))
    #expect(unmappedResult?.contains("title1") == true, "\(unmappedResult ?? "passed")")
    let foyer = try stubs.typecheck(
      theme: "MainThemeWithoutGradients", files: try foyerFiles().filter { $0.path.hasSuffix(".swift") },
      in: work.root.appendingPathComponent("foyer"))
    #expect(foyer == nil, "\(foyer ?? "")")
    // The engine-layout fixture's config, with app code that names the types as it
    // does against the engine's files (`MainTheme.FontFamilyToken`, `MainTheme.FontToken`).
    let appCode = GeneratedFile(path: "AppCode.swift", contents: """
      import UIKit
      func faceName(_ token: MainTheme.FontToken) -> String {
        let family: MainTheme.FontFamilyToken = token.family
        switch family {
        case .serif: return "serif"
        case .sans: return "sans"
        case .mono: return "mono"
        }
      }

      """)
    let engineLayout = try TokenPlan(TokenConfigLoader.load(root: EngineLayoutFixture.root)).files.filter { $0.path.hasSuffix(".swift") }
    let engineResult = try stubs.typecheck(theme: "MainTheme", files: engineLayout + [appCode], in: work.root.appendingPathComponent("engine-layout"))
    #expect(engineResult == nil, "\(engineResult ?? "")")

    // A deliberate type error just inside `#if os(iOS)`: if the guard stayed, Linux would skip it and pass.
    var broken = full
    broken[0].contents = broken[0].contents.replacingOccurrences(
      of: "#if os(iOS)\n", with: "#if os(iOS)\nlet deliberateTypeError: Int = \"not an Int\"\n")
    #expect(broken[0].contents.contains("deliberateTypeError"))
    let brokenResult = try stubs.typecheck(theme: "MainTheme", files: broken, in: work.root.appendingPathComponent("broken"))
    #expect(brokenResult?.contains("deliberateTypeError") == true || brokenResult?.contains("cannot convert") == true, "\(brokenResult ?? "passed")")

    // Without `import UIKit` the table must not compile: no stub leaks UIKit to its importers.
    var missingImport = full
    let palette = try #require(missingImport.firstIndex { $0.path.hasSuffix("MainThemePalette.swift") })
    missingImport[palette].contents = missingImport[palette].contents.replacingOccurrences(of: "import UIKit\n", with: "")
    let importResult = try stubs.typecheck(theme: "MainTheme", files: missingImport, in: work.root.appendingPathComponent("import"))
    #expect(importResult?.contains("cannot find type 'UI") == true, "\(importResult ?? "passed")")
  }

  /// The Swift generated from docs, notes and headings that try to break out of
  /// their comments (`HostileDocs`) type-checks in both styles, and a file of
  /// string literals of the same texts (`SourceLanguage.swift.stringLiteral`) does too.
  @Test func hostileDocsTypeCheck() throws {
    let work = try TokenTempTree()
    let stubs = try SwiftStubs(in: work.root)
    let literals = GeneratedFile(path: "Literals.swift", contents: HostileDocs.texts.enumerated()
      .map { "let literal\($0.offset) = \(SourceLanguage.swift.stringLiteral($0.element))\n" }.joined())
    for plain in [false, true] {
      let files = TokenPlan(try HostileDocs.config(plain: plain)).files.filter { $0.path.hasSuffix(".swift") }
      let result = try stubs.typecheck(
        theme: plain ? nil : "MainThemeWithoutGradients", files: files + [literals],
        in: work.root.appendingPathComponent(plain ? "hostile-plain" : "hostile"))
      #expect(result == nil, "\(result ?? "")")
    }
  }

  /// The guard removal drops exactly the two guard lines and nothing else.
  @Test func guardRemovalDropsOnlyTheGuard() throws {
    let file = try #require(try swiftFiles("full").first)
    let before = file.contents.split(separator: "\n", omittingEmptySubsequences: false)
    let after = SwiftCompileInput.droppingIOSGuard(file.contents).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(before.filter { $0 == "#if os(iOS)" }.count == 1)
    #expect(before.filter { $0 == "#endif" }.count == 1)
    #expect(after.count == before.count - 2)
    #expect(!after.contains("#if os(iOS)") && !after.contains("#endif"))
  }

  /// The generated Kotlin of every fixture and of the Foyer example compiles with kotlinc against the engine stub,
  /// in one kotlinc call (it takes seconds to start). Without kotlinc this fails with the command that installs it.
  @Test func generatedKotlinCompiles() throws {
    guard let kotlinc = TestTools.find("kotlinc") else {
      Issue.record(Comment(rawValue: TestTools.missing("kotlinc", for: "the Kotlin compile test")))
      return
    }
    let work = try TokenTempTree()
    var paths = [TokenFixtures.stubs.appendingPathComponent("kotlin/Theming.kt").path]
    // Compose's Color, units, TextStyle and fonts, for the compose style.
    paths += ["Graphics", "Unit", "Text", "Font"].map { TokenFixtures.stubs.appendingPathComponent("kotlin/compose/\($0).kt").path }
    var sets: [(String, [GeneratedFile])] = try ["full", "minimal", "kotlin-only", "themed", "plain"].map { ($0, TokenPlan(try TokenFixtures.config($0)).files) }
    sets.append(("foyer", try foyerFiles()))
    sets.append(("engine-layout", try EngineLayoutFixture.plan().files))
    // Docs that try to leave their KDoc (`*/`, nested `/*`, CR, NEL, LS, PS), in both
    // styles, and Kotlin string literals of the same texts.
    sets.append(("hostile", TokenPlan(try HostileDocs.config(plain: false)).files))
    sets.append(("hostile-plain", TokenPlan(try HostileDocs.config(plain: true)).files))
    sets.append(("literals", [GeneratedFile(path: "Literals.kt", contents: "package dev.example.literals\n\n" + HostileDocs.texts.enumerated()
      .map { "val literal\($0.offset) = \(SourceLanguage.kotlin.stringLiteral($0.element))\n" }.joined())]))
    let hostileKotlin = sets.suffix(3).reduce(0) { $0 + $1.1.filter { $0.path.hasSuffix(".kt") }.count }
    for (name, files) in sets {
      for file in files where file.path.hasSuffix(".kt") {
        let path = "\(name)/\(file.path)"
        try work.write(file.contents, to: path)
        paths.append(work.root.appendingPathComponent(path).path)
      }
    }
    #expect(paths.count == 1 + 4 + 4 + 3 + 4 + 5 + 4 + 4 + 4 + hostileKotlin)
    let result = try run(kotlinc, paths + ["-d", work.root.appendingPathComponent("classes").path], environment: KotlinJVM.quickStart)
    #expect(result.status == 0, "\(result.output)")
    // JDK warnings on stderr are not failures; compiler warnings about the generated code are.
    let warnings = result.output.split(separator: "\n").filter { $0.contains(": warning:") }
    #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")
  }
}
