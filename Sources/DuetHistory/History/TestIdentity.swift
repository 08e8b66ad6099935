/// What makes a test case one test across runs: where it ran. A case is
/// (lane, report file, suite, name, position among same-named cases), so
/// Gradle's `testDebugUnitTest` and `testReleaseUnitTest` (each a
/// `TEST-<class>.xml` holding the same class and names) are two tests, and so
/// are parameterised cases that share one displayed name. Only a later attempt
/// of the same identity can be a retry of it: nothing in one attempt is.
struct TestIdentity: Sendable, Hashable {
  /// A case's place within one attempt, before its position is known.
  struct Place: Sendable, Hashable {
    var report: String
    var suite: String
    var name: String
  }

  var lane: String
  /// The report file, relative to the tree root ("" for rows from before schema 5).
  var report: String
  var suite: String
  var name: String
  /// Its position among the cases of the same report, suite and name in one attempt (0 for the first).
  var ordinal: Int

  /// `suite.name`, as a person (and a quarantine entry) names the test.
  var fullName: String { suite.isEmpty ? name : "\(suite).\(name)" }

  /// For each identity that shares its lane and full name with another, what
  /// tells them apart: the part of the report path that differs (Gradle's
  /// variant folder, `testDebugUnitTest`) and `#2` for the second same-named
  /// case of one report; "" for an identity whose name is its own.
  static func qualifiers(_ identities: [TestIdentity]) -> [TestIdentity: String] {
    var groups: [String: [TestIdentity]] = [:]
    for identity in identities { groups["\(identity.lane)\u{0}\(identity.fullName)", default: []].append(identity) }
    var result: [TestIdentity: String] = [:]
    for group in groups.values {
      guard group.count > 1 else {
        group.forEach { result[$0] = "" }
        continue
      }
      let reports = Set(group.map(\.report))
      let differing = differingParts(Array(reports))
      let numbered = Set(group.map(\.ordinal)).count > 1
      for identity in group {
        var parts: [String] = []
        if reports.count > 1, let part = differing[identity.report], !part.isEmpty { parts.append(part) }
        if numbered { parts.append("#\(identity.ordinal + 1)") }
        result[identity] = parts.joined(separator: " ")
      }
    }
    return result
  }

  /// Each path with the folders and file name all the paths share at its start
  /// and end taken away: `a/testDebugUnitTest/T.xml` and `a/testReleaseUnitTest/T.xml`
  /// become `testDebugUnitTest` and `testReleaseUnitTest`.
  static func differingParts(_ paths: [String]) -> [String: String] {
    let split = paths.map { $0.split(separator: "/", omittingEmptySubsequences: false).map(String.init) }
    guard let shortest = split.map(\.count).min() else { return [:] }
    var prefix = 0
    while prefix < shortest, split.allSatisfy({ $0[prefix] == split[0][prefix] }) { prefix += 1 }
    var suffix = 0
    while suffix < shortest - prefix, split.allSatisfy({ $0[$0.count - 1 - suffix] == split[0][split[0].count - 1 - suffix] }) { suffix += 1 }
    var result: [String: String] = [:]
    for (path, parts) in zip(paths, split) {
      result[path] = parts[prefix..<(parts.count - suffix)].joined(separator: "/")
    }
    return result
  }

  /// How a person names this test where `qualifier` tells it from its namesakes:
  /// `app.CartTest.adds [testDebugUnitTest]`, or the full name alone.
  func label(qualifier: String) -> String {
    qualifier.isEmpty ? fullName : "\(fullName) [\(qualifier)]"
  }
}
