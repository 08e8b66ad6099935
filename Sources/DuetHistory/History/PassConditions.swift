import DuetSupport

/// The conditions a lane's pass was judged under, kept beside its fingerprint:
/// a pass certifies what the lane saw, so it serves only a run whose conditions
/// it covers.
///
/// - `strict`: judged under `--strict` in a run that changed no tracked file. A
///   `--strict` run is served only such passes; any run may use them.
/// - `partial`: judged on a change list (`--since`, `--changed`), where a lane
///   may have checked only the listed files. Such a pass never serves a run of
///   the whole tree; a whole-tree pass serves a partial run.
/// - `failedTestsOnly`: judged running only the test cases that failed last
///   time (`--failed-tests`). Such a pass serves no run: the rest were not run.
/// - `moved`: inputs that were different after the lane than before it (edited
///   while it ran). The pass stood for its run; it serves none after it.
package struct PassConditions: Sendable, Equatable {
  package var strict = false
  package var partial = false
  package var failedTestsOnly = false
  package var moved: [String] = []

  package init(strict: Bool = false, partial: Bool = false, moved: [String] = []) {
    self.strict = strict
    self.partial = partial
    self.moved = moved
  }

  /// One word a line (`strict`, `partial`, `moved PATH`), as the store keeps it.
  package var serialized: String {
    var lines: [String] = []
    if strict { lines.append("strict") }
    if partial { lines.append("partial") }
    if failedTestsOnly { lines.append("failed-tests-only") }
    lines += moved.map { "moved " + $0 }
    return lines.joined(separator: "\n")
  }

  /// Conditions read back; unknown words are ignored, a missing column is none.
  static func parse(_ text: String?) -> PassConditions {
    var conditions = PassConditions()
    for line in (text ?? "").split(separator: "\n") {
      if line == "strict" { conditions.strict = true }
      else if line == "partial" { conditions.partial = true }
      else if line == "failed-tests-only" { conditions.failedTestsOnly = true }
      else if line.hasPrefix("moved ") { conditions.moved.append(String(line.dropFirst("moved ".count))) }
    }
    return conditions
  }

  /// Why a pass judged under these conditions may not serve a run that is
  /// `strict` and/or `partial`; nil when it may.
  package func refusal(strict runIsStrict: Bool, partial runIsPartial: Bool) -> String? {
    if !moved.isEmpty {
      return "its inputs changed while it last ran (\(FingerprintParts.listed(moved))), so that pass was not kept"
    }
    if failedTestsOnly {
      return "it last passed running only its failed tests (--failed-tests), not all of them"
    }
    if runIsStrict && !strict {
      return "it last passed without --strict, so nothing says it leaves tracked files alone"
    }
    if partial && !runIsPartial {
      return "it last passed on a change list (--since), not the whole tree"
    }
    return nil
  }
}
