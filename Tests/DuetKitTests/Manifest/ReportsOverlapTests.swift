import Foundation
import Testing
@testable import DuetModel
@testable import DuetSupport
@testable import DuetFuzzSupport

/// Issue 50, item 3: two lanes that may run at once must not read one report.
@Suite("Overlapping reports: globs")
struct ReportsOverlapTests {
  let builtins = ["design-tokens": ["--check"]]

  func errors(_ text: String) -> [String] {
    do {
      let node = try YAMLParser.parse(text, file: "lanes/manifest.yaml")
      _ = try ManifestLoader.parse(node, path: "lanes/manifest.yaml", builtins: builtins)
      return []
    } catch let error as ManifestError {
      return error.diagnostics.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }

  /// Pairs of globs that can, and cannot, match one file, by the dialect's
  /// rules: `**` takes zero or more visible segments (a trailing one at least
  /// one), hidden names need a written leading `.`, `*` and `?` stay in a segment.
  @Test(arguments: [
    ("build/test-results/**/*.xml", "build/**/*.xml", true),
    ("build/**/*.xml", "build/*.xml", true),
    ("a/build/test-results/**/*.xml", "b/build/test-results/**/*.xml", false),
    ("out/*.xml", "out/*.json", false),
    ("out/*.xml", "out/unit.xml", true),
    ("out/unit?.xml", "out/*2.xml", true),
    ("out/unit?.xml", "out/unit.xml", false),
    ("**/*.xml", "reports/x/y/z.xml", true),
    ("**", "junit.xml", true),
    ("build/**", "build", false),
    ("build/**", "build/x", true),
    ("**/*.xml", ".build/x.xml", false),
    (".build/*.xml", ".build/duet-xunit*.xml", true),
    ("*/x.xml", ".hidden/x.xml", false),
    ("*.xml", "?ml", false),
    ("*.a", "?a", false),
    ("*a*", "*b*", true),
    ("a*", "*b", true),
    ("a*c", "ab*", true),
    ("a?c", "ab*d", false),
    ("**/a/**/b.xml", "x/**/c/b.xml", true),
    ("a/**/b.xml", "a/b.xml", true),
    ("a/*/b.xml", "a/b.xml", false),
  ])
  func globsShareAFile(a: String, b: String, shared: Bool) {
    #expect(Glob(a).sharesAFile(with: Glob(b)) == shared, "\(a) vs \(b)")
    #expect(Glob(b).sharesAFile(with: Glob(a)) == shared, "\(b) vs \(a)")
  }

  /// Seeded random globs over a tiny alphabet against every path of up to
  /// three segments of up to two characters: the test says two globs share a
  /// file exactly when such a path matches both (witnesses for patterns this
  /// small are this small), as `Glob.match` decides it.
  @Test func agreesWithMatchingEveryPath() {
    var random = SeededRandom(seed: 50)
    let letters = ["a", "b", "."]
    let names = (letters + letters.flatMap { first in letters.map { first + $0 } }).filter { $0 != "." && $0 != ".." }
    var paths = names.map { [$0] }
    paths += paths.flatMap { path in names.map { path + [$0] } }
    paths += paths.filter { $0.count == 2 }.flatMap { path in names.map { path + [$0] } }
    let pieces = ["a", "b", ".", "*", "?", "a*", "*b", ".a", ".*", "?a", "**"]
    func glob() -> Glob {
      var segments = (0..<(random.below(3) + 1)).map { _ in random.pick(pieces) }
      // A trailing `**` matches the folder itself in `matches`, never a file in `expand`.
      if segments.last == "**" { segments[segments.count - 1] = "a" }
      return Glob(segments.joined(separator: "/"))
    }
    for _ in 0..<150 {
      let a = glob(), b = glob()
      let witness = paths.first { Glob.match(a.segments, $0) && Glob.match(b.segments, $0) }
      #expect(a.sharesAFile(with: b) == (witness != nil), "\(a) vs \(b): witness \(witness?.joined(separator: "/") ?? "none")")
    }
  }

  /// A very long segment costs time, not stack: no recursion, no trap.
  @Test func longPatternsEndWithoutATrap() {
    let long = String(repeating: "*a", count: 300)
    #expect(Glob("out/" + long + ".xml").sharesAFile(with: Glob("out/" + long + "b.xml")) == false)
    #expect(Glob("out/" + long).sharesAFile(with: Glob("out/*")))
  }

  /// The manifest: two lanes that may run at once whose globs can match one
  /// file are refused at load, naming both lanes and both globs with their
  /// `file:line:column`, once per pair of lanes; lanes where one needs the
  /// other (directly or through another) or that share a pool of depth 1 take
  /// turns and load.
  @Test func overlappingReportsOfLanesThatMayRunAtOnceAreRefused() {
    #expect(errors("""
      version: 1
      pools: {gradle: 1, wide: 2}
      lanes:
        - {name: gradle, sh: x, reports: ["build/test-results/**/*.xml"]}
        - {name: other, sh: x, reports: [out.xml, "build/**/*.xml", "build/*/x.xml"]}
        - {name: after, sh: x, needs: [middle], reports: ["build/**/*.xml"]}
        - {name: middle, sh: x, needs: [gradle, other]}
        - {name: g1, sh: x, pool: gradle, reports: ["app/**/TEST-*.xml"]}
        - {name: g2, sh: x, pool: gradle, reports: ["app/build/**/*.xml"]}
        - {name: w1, sh: x, pool: wide, reports: [w/*.xml]}
        - {name: w2, sh: x, pool: wide, reports: [w/a.xml]}
      """) == [
      "lanes/manifest.yaml:5:45: error: lane 'other': its reports \"build/**/*.xml\" and the reports \"build/test-results/**/*.xml\" of lane 'gradle' (lanes/manifest.yaml:4:37) can match one file, and the two lanes may run at once (neither needs the other), so each would record the other's test cases; narrow a glob, make one lane need the other, or put both in a pool of depth 1",
      "lanes/manifest.yaml:11:45: error: lane 'w2': its reports \"w/a.xml\" and the reports \"w/*.xml\" of lane 'w1' (lanes/manifest.yaml:10:45) can match one file, and the two lanes may run at once (neither needs the other), so each would record the other's test cases; narrow a glob, make one lane need the other, or put both in a pool of depth 1",
    ])
    #expect(errors("""
      version: 1
      lanes:
        - {name: a, sh: x, reports: ["a/build/test-results/**/*.xml"]}
        - {name: b, sh: x, reports: ["b/build/test-results/**/*.xml", "**/.build/*.xml"]}
        - {name: c, sh: x, needs: [b], reports: ["**/*.xml"]}
      """).isEmpty == false)
    #expect(errors("""
      version: 1
      lanes:
        - {name: a, sh: x, reports: ["a/build/test-results/**/*.xml"]}
        - {name: b, sh: x, reports: ["b/build/test-results/**/*.xml", "b/.build/*.xml"]}
        - {name: c, sh: x, needs: [b, a], reports: ["**/*.xml"]}
      """) == [])
  }
}
