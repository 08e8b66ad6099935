import Foundation
import DuetModel
import DuetSupport

/// `duet theme-test` as a library call, shared by the CLI and the built-in
/// lane: read the token config, then check every pair it names.
package enum ThemeTest {
  package enum Outcome: Sendable {
    case report(ThemeTestReport)
    /// The config is missing, unreadable or has nothing to test: exit 2.
    case failure([Diagnostic], configPath: String)

    package var exitCode: Int32 {
      switch self {
      case .report(let report): return report.exitCode
      case .failure: return 2
      }
    }

    package var text: TerminalLine {
      switch self {
      case .report(let report): return report.text
      case .failure(let diagnostics, _): return diagnostics.map { "\($0)" }.joined(separator: "\n")
      }
    }

    package var json: String {
      switch self {
      case .report(let report): return report.json
      case .failure(let diagnostics, let configPath): return ThemeTestReport.errorJSON(diagnostics, configPath: configPath)
      }
    }
  }

  /// Runs on the tree at `root`; `configURL` overrides where the config is read
  /// from, `configPath` is how messages name it. Unlike `design-tokens`, a
  /// missing config is an error: a theme test with nothing to test must not pass.
  package static func run(root: URL, configPath: String = TokenConfig.defaultPath, configURL: URL? = nil) -> Outcome {
    let url = configURL ?? root.appendingPathComponent(configPath)
    guard FileManager.default.fileExists(atPath: url.path) else {
      return .failure([Diagnostic("no token config at \(configPath); theme-test reads its 'contrast:' and 'themes:' sections")], configPath: configPath)
    }
    do throws(TokenConfigError) {
      let config = try TokenConfigLoader.load(url: url, path: configPath, root: root)
      guard config.contrast != nil else {
        return .failure(
          [
            Diagnostic(
              "the token config has no 'contrast:' section, and no \(ThemeTestFile.fileName) beside it has one; theme-test needs its 'labels:' and 'surfaces:' (the colour tokens used as text, and those text sits on)",
              at: SourceLocation(file: configPath, line: 1, column: 1))
          ], configPath: configPath)
      }
      return .report(ThemeTestReport(configPath: configPath, results: ThemeContrast.evaluate(config)))
    } catch {
      return .failure(error.diagnostics, configPath: configPath)
    }
  }
}

extension ThemeTest {
  /// The config, the theme-test settings beside it and the DTCG files it
  /// names: a change to any can change a ratio.
  static func implicitInputs(_ tree: URL) -> [String] {
    let sources = (try? TokenConfigLoader.load(root: tree))?.tokenSources ?? []
    return [TokenConfig.defaultPath, ThemeTestFile.defaultPath] + sources
  }
}

extension BuiltinLane {
  /// `run: theme-test` in a lane: the same check and text as `duet theme-test`
  /// on the lane's tree. Its result depends on the token config alone.
  package static let themeTest = BuiltinLane(name: "theme-test", options: [], implicitInputs: { ThemeTest.implicitInputs($0.tree) }) { context in
    let outcome = ThemeTest.run(root: context.tree)
    return BuiltinEnd(exitCode: outcome.exitCode, output: outcome.text.text)
  }
}
