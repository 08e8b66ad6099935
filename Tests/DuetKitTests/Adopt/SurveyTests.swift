import Foundation
import Testing
@testable import DuetApp
@testable import DuetAdopt
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

@Suite("Tree survey and the manifest init writes")
struct SurveyTests {
  /// The test task follows the module's kind and its test source sets; device tests alone are no host tests.
  @Test func gradleTestTask() {
    var module = GradleModule(path: "m", project: ":m", settingsFile: "settings.gradle.kts", settingsFolder: "")
    #expect(module.testTask == nil)
    module.testSourceSets = ["androidTest"]
    #expect(module.testTask == nil)
    module.testSourceSets = ["test"]
    #expect(module.testTask == "test")
    module.isMultiplatform = true
    module.testSourceSets = ["commonTest", "iosTest"]
    #expect(module.testTask == "allTests")
    module.hasJVMTarget = true
    #expect(module.testTask == "jvmTest")
    #expect(module.hostTestSourceSets == ["commonTest"])
  }

  /// `project(...)` references in either quoting, commented lines left out, each once.
  @Test func gradleProjectReferences() {
    let code = BuildScript("""
      implementation(project(":theming"))
      api(project(path: ':core:model'))
      // implementation(project(":old"))
      testImplementation(project(":theming"))
      """)
    #expect(GradleModule.projectReferences(in: code) == [":theming", ":core:model"])
  }

  /// Type-safe project accessors count as dependencies, by Gradle's camel-case rule;
  /// a longer accessor is not its prefix's project.
  @Test func gradleTypeSafeAccessors() {
    #expect(GradleModule.typeSafeAccessor(":feature-home:core") == "featureHome.core")
    #expect(GradleModule.typeSafeAccessor(":design_system") == "designSystem")
    let code = """
      implementation(projects.theming)
      api(projects.featureHome.core)
      implementation(project(":legacy"))
      """
    let projects = [":theming", ":feature-home", ":feature-home:core", ":legacy"]
    #expect(GradleModule.projectReferences(in: BuildScript(code), buildProjects: projects) == [":theming", ":feature-home:core", ":legacy"])
  }

  /// A module is multiplatform by the plugin in any spelling (a catalog alias too) or by its
  /// common source sets; `jvm()` and `jvm { }` declare its JVM target, `kotlin("jvm")` does not.
  @Test func gradleMultiplatformSpellings() throws {
    let tree = try TemporaryFolder()
    try tree.write("kmp/settings.gradle.kts", "include(\":alias\", \":convention\", \":plain\")\n")
    try tree.write("kmp/alias/build.gradle.kts", "plugins { alias(libs.plugins.kotlinMultiplatform) }\nkotlin {\n  jvm()\n}\n")
    try tree.write("kmp/alias/src/commonTest/kotlin/A.kt", "")
    try tree.write("kmp/convention/build.gradle.kts", "plugins { id(\"atrium.kmp-library\") }\n")
    try tree.write("kmp/convention/src/commonMain/kotlin/C.kt", "")
    try tree.write("kmp/convention/src/commonTest/kotlin/C.kt", "")
    try tree.write("kmp/plain/build.gradle.kts", "plugins { kotlin(\"jvm\") }\n")
    try tree.write("kmp/plain/src/test/kotlin/P.kt", "")
    let modules = GradleModule.modules(settingsFile: "kmp/settings.gradle.kts", root: tree.url)
    #expect(modules.map(\.testTask) == ["jvmTest", "allTests", "test"])
  }

  /// Comments go, string literals stay whole: a URL's `//` cuts nothing, a commented-out
  /// `.testTarget` in a block comment is not read.
  @Test func swiftPackageOnOneLine() throws {
    let tree = try TemporaryFolder()
    try tree.write("Kit/Package.swift", #"let package = Package(name: "Kit", dependencies: [.package(url: "https://example.com/a.git", from: "1.0.0"), .package(path: "../Design")], targets: [.target(name: "Kit"), /* .testTarget(name: "Old"), */ .testTarget(name: "KitTests")])"#)
    let package = try #require(SwiftPackage.read(manifestFile: "Kit/Package.swift", root: tree.url))
    #expect(package.testTargets == ["KitTests"])
    #expect(package.pathDependencies == ["Design"])
    #expect(BuildScript("a /* x /* nested */\ny */ b // c\n\"d // e\" 'f' \"\"\"g // h\"\"\"").tokens == [.word("a"), .word("b"), .literal("d // e"), .literal("f"), .literal("g // h")])
  }

  /// Tokens: escapes resolved, templates and interpolations have no fixed value, a `"""`
  /// block spanning lines is one literal, an unclosed string or comment ends the file quietly.
  @Test func buildScriptTokens() {
    #expect(BuildScript(#"x("a\"b", "$v", "${n}", "\$d", "\(s)", 'c')"#).tokens == [
      .word("x"), .symbol("("), .literal("a\"b"), .symbol(","), .literal(nil), .symbol(","), .literal(nil), .symbol(","),
      .literal("$d"), .symbol(","), .literal(nil), .symbol(","), .literal("c"), .symbol(")"),
    ])
    #expect(BuildScript("val doc = \"\"\"\ninclude(\":ghost\")\n\"\"\"\n").tokens == [.word("val"), .word("doc"), .symbol("="), .literal("\ninclude(\":ghost\")\n")])
    #expect(BuildScript("a \"open\nb /* never closed").tokens == [.word("a"), .literal("open"), .word("b")])
    let script = BuildScript(".testTarget(name: \"T\", dependencies: [.target(name: \"U\")])")
    #expect(script.calls("testTarget", member: true).map { BuildScript.argument("name", in: $0) } == ["T"])
  }

  /// A dependency or accessor that merely has "multiplatform" in its name does not make a module multiplatform.
  @Test func multiplatformIsThePlugin() {
    #expect(GradleModule.appliesMultiplatform(BuildScript("plugins { kotlin(\"multiplatform\") }")))
    #expect(GradleModule.appliesMultiplatform(BuildScript("plugins { id(\"org.jetbrains.kotlin.multiplatform\") }")))
    #expect(GradleModule.appliesMultiplatform(BuildScript("apply plugin: 'kotlin-multiplatform'")))
    #expect(GradleModule.appliesMultiplatform(BuildScript("plugins { alias(libs.plugins.kotlin.multiplatform) }")))
    #expect(!GradleModule.appliesMultiplatform(BuildScript("plugins { id(\"com.android.library\") }\ndependencies { implementation(\"com.russhwolf:multiplatform-settings:1.1.1\") }")))
    #expect(!GradleModule.appliesMultiplatform(BuildScript("plugins { kotlin(\"jvm\") }\ndependencies { implementation(projects.sharedMultiplatform) }")))
  }

  /// Test targets and local dependencies are read from a manifest's text; paths resolve from the package's folder.
  @Test func swiftPackageText() throws {
    let tree = try TemporaryFolder()
    try tree.write("ios/Kit/Package.swift", """
      // .testTarget(name: "Commented")
      let package = Package(
        name: "Kit",
        dependencies: [.package(path: "../Design"), .package(url: "https://x/y", from: "1.0.0"), .package(name: "Up", path: "../../../outside")],
        targets: [
          .target(name: "Kit", dependencies: [.product(name: "Design", package: "Design")]),
          .testTarget(
            name: "KitTests",
            dependencies: ["Kit"]
          ),
          .testTarget(name: "KitUITests", dependencies: [.target(name: "Kit")]),
        ]
      )
      """)
    let package = try #require(SwiftPackage.read(manifestFile: "ios/Kit/Package.swift", root: tree.url))
    #expect(package.path == "ios/Kit")
    #expect(package.testTargets == ["KitTests", "KitUITests"])
    #expect(package.pathDependencies == ["ios/Design"])
    #expect(SwiftPackage.resolve("./Sub", from: "") == "Sub")
    #expect(SwiftPackage.resolve("..", from: "a") == ".")
  }

  /// What init writes reads back through the manifest loader as the same lanes the plan holds,
  /// also for names and commands that need quoting.
  @Test func writtenManifestReadsBack() throws {
    var survey = TreeSurvey()
    survey.tokenConfig = TokenConfigFacts(path: "parity/design-tokens.yaml", themeCount: 1, swiftOutput: nil, kotlinOutput: "kmp/ui kit/Generated")
    var odd = GradleModule(path: "kmp/ui kit", project: ":ui kit", settingsFile: "kmp/settings.gradle", settingsFolder: "kmp", testSourceSets: ["test"], hasWrapper: true)
    odd.projectDependencies = []
    survey.gradleModules = [odd, GradleModule(path: "kmp/app", project: ":app", settingsFile: "kmp/settings.gradle", settingsFolder: "kmp")]
    survey.swiftPackages = [SwiftPackage(path: ".", manifestFile: "Package.swift", testTargets: ["RootTests"])]
    let plan = AdoptionPlan(survey)
    let text = ManifestWriter.render(plan)
    let manifest = try ManifestLoader.parse(try YAMLParser.parse(text, file: "lanes/manifest.yaml"), path: "lanes/manifest.yaml", builtins: BuiltinSet.standard.vocabulary)
    let derived = DerivedLanes.lanes(plan)
    #expect(manifest.lanes.map(\.name) == ["design-tokens", "theme-test", "kotlin-ui-kit", "kotlin-app", "swift-package"])
    #expect(manifest.lanes.map(\.step) == derived.map(\.step))
    #expect(manifest.lanes.map(\.needs) == derived.map(\.needs))
    #expect(manifest.lanes.map(\.covers) == derived.map(\.covers))
    #expect(manifest.lanes.map(\.dir) == derived.map(\.dir))
    #expect(manifest.lanes.map(\.requires) == derived.map(\.requires))
    #expect(manifest.lanes.map(\.pool) == derived.map(\.pool))
    #expect(manifest.lanes.map(\.platforms) == derived.map(\.platforms))
    #expect(manifest.pools == plan.pools && plan.pools == ["gradle": 1])
    #expect(manifest.lanes[2].commandText == "./gradlew ':ui kit:test' --console=plain")
    #expect(manifest.lanes[2].covers == ["kmp/ui kit"])
    #expect(manifest.lanes[2].needs == ["design-tokens"])
    #expect(manifest.lanes[4].commandText == "swift test --package-path . --xunit-output .build/duet-xunit.xml")
    #expect(manifest.lanes.map(\.reports) == derived.map(\.reports))
    #expect(manifest.lanes[2].reports == ["kmp/ui kit/build/test-results/**/*.xml"])
    #expect(manifest.lanes[4].reports == [".build/duet-xunit*.xml"])
  }

  /// YAML scalars duet writes read back as the same text, quoted only when they must be.
  @Test func yamlScalarsRoundTrip() throws {
    let samples = ["plain", "./gradlew :a:b --console=plain", "yes", "1.5", "a: b", "#x", "- x", "it's", "say \"hi\"", "back\\slash", "tab\there", "[x]", "x,y", "trailing ", ""]
    for sample in samples {
      let node = try YAMLParser.parse("key: \(YAMLText.scalar(sample))\n", file: "t.yaml")
      #expect(node["key"]?.scalar == sample, "\(sample) → \(YAMLText.scalar(sample))")
    }
    #expect(YAMLText.scalar("./gradlew :a:b --console=plain") == "./gradlew :a:b --console=plain")
    #expect(YAMLText.scalar("yes") == "\"yes\"")
  }
}
