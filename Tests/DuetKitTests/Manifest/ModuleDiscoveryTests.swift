import Foundation
import Testing
@testable import DuetApp
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Module discovery")
struct ModuleDiscoveryTests {
  /// Both Kotlin and Groovy `include` forms, with nested project paths.
  @Test func gradleIncludes() {
    let text = """
      rootProject.name = "foyer"
      include(":app", ":home")
      include ':theming:core'
      // include(":commented")
      includeBuild("build-logic")
      """
    #expect(ModuleDiscovery.gradleIncludes(in: text) == [":app", ":home", ":theming:core"])
  }

  /// An include spread over lines (the Kotlin DSL's usual layout), Groovy's continued after a
  /// trailing comma, and includes inside block comments or string literals left out.
  @Test func gradleIncludesAcrossLines() {
    let text = """
      rootProject.name = "include"
      include(
          ":app",
          ":feature:home", // the home screen
      )
      include ':legacy',
              ':legacy:core'
      /* include(":old")
         include(":older") */
      val note = "include(':not')"
      """
    #expect(ModuleDiscovery.gradleIncludes(in: text) == [":app", ":feature:home", ":legacy", ":legacy:core"])
  }

  /// A Groovy include takes its comma-separated names only; an include in a `"""` block, one
  /// built at run time and one that never closes name no module.
  @Test func gradleIncludesOnlyWhatTheyName() {
    let text = """
      include ':a'; println "hello"
      val doc = \"\"\"
      include(":ghost")
      \"\"\"
      include(":${name}")
      include(":b"
      rootProject.name = "foo"
      """
    #expect(ModuleDiscovery.gradleIncludes(in: text) == [":a"])
  }

  /// Modules come from `modules:` globs, Gradle includes and Package.swift folders; covers mark them.
  @Test func discoversAndCovers() throws {
    let tree = try TemporaryFolder()
    try tree.write("src-kmp/settings.gradle.kts", "include(\":app\", \":theming\")\n")
    try tree.write("src-kmp/app/build.gradle.kts", "")
    try tree.write("src-ios/Libraries/FoyerKit/Package.swift", "")
    try tree.write("src-ios/Libraries/FoyerKit/.build/checkouts/dep/Package.swift", "")
    try tree.write("node_modules/x/Package.swift", "")
    try tree.write("extra/one/file.txt", "")
    var manifest = Manifest(path: "lanes/manifest.yaml", modules: ["extra/*"])
    var lane = Lane(name: "kotlin", step: .shell("x"), location: SourceLocation(file: "m", line: 1, column: 1))
    lane.covers = ["src-kmp/app"]
    manifest.lanes = [lane]
    let modules = ModuleDiscovery.discover(root: tree.url, manifest: manifest)
    #expect(modules.map(\.path) == ["extra/one", "src-ios/Libraries/FoyerKit", "src-kmp/app", "src-kmp/theming"])
    #expect(modules.filter { $0.coveredBy.isEmpty }.map(\.path) == ["extra/one", "src-ios/Libraries/FoyerKit", "src-kmp/theming"])
    #expect(modules[0].foundBy == ["modules: extra/*"])
    #expect(modules[3].foundBy == ["src-kmp/settings.gradle.kts"])
  }
}
