import Foundation
import DuetModel
import DuetSupport

/// `duet design-tokens` as a library call: load the config, plan the files,
/// then write them or check them. Shared by the CLI and the built-in lane.
package enum DesignTokens {
  /// The end of a run: a report (exit 0 or 1) or the config's errors (exit 2,
  /// nothing written).
  package enum Outcome: Sendable {
    case report(TokenReport)
    case failure([Diagnostic], mode: TokenReport.Mode, configPath: String)

    package var exitCode: Int32 {
      switch self {
      case .report(let report): return report.exitCode
      case .failure: return 2
      }
    }

    /// What the command prints: the report, or the errors in `file:line:col: error:` form.
    package var text: TerminalLine {
      switch self {
      case .report(let report): return report.text
      case .failure(let diagnostics, _, _): return diagnostics.map { "\($0)" }.joined(separator: "\n")
      }
    }

    package var json: String {
      switch self {
      case .report(let report): return report.json
      case .failure(let diagnostics, let mode, let configPath):
        return TokenReport.errorJSON(diagnostics, mode: mode, configPath: configPath)
      }
    }
  }

  /// Runs on the tree at `root`. `configPath` is the config's path as messages
  /// name it, relative to `root` unless `configURL` says where it really is
  /// (`--config FILE`); `explicit` makes a missing config an error, not a pass;
  /// `rewrite` rewrites files the Duet toolchain's engine wrote in duet's layout
  /// even when their code is current.
  package static func run(
    root: URL, configPath: String = TokenConfig.defaultPath, configURL: URL? = nil, explicit: Bool = false,
    check: Bool, rewrite: Bool = false
  ) -> Outcome {
    let mode: TokenReport.Mode = check ? .check : .write
    let url = configURL ?? root.appendingPathComponent(configPath)
    guard FileManager.default.fileExists(atPath: url.path) else {
      if explicit {
        return .failure([Diagnostic("no token config at \(configPath)")], mode: mode, configPath: configPath)
      }
      return .report(TokenReport(mode: mode, configPath: configPath, configFound: false))
    }
    do throws(TokenConfigError) {
      let config = try TokenConfigLoader.load(url: url, path: configPath, root: root)
      let plan = TokenPlan(config)
      if check { return .report(TokenCheck.run(plan, root: root, configPath: configPath, config: config)) }
      return .report(try TokenWriter.run(plan, config: config, root: root, rewrite: rewrite))
    } catch {
      return .failure(error.diagnostics, mode: mode, configPath: configPath)
    }
  }

  /// What a run reads, as paths relative to the tree: the config, the DTCG files it names, every file
  /// it generates and every file a target owns. A cache keyed on a lane's
  /// inputs must include them, or a hand-edited generated file would be hidden.
  static func implicitInputs(_ tree: URL) -> [String] {
    // theme-test.yaml may opt a theme's mapping into generation.
    guard let config = try? TokenConfigLoader.load(root: tree) else { return [TokenConfig.defaultPath, ThemeTestFile.defaultPath] }
    let plan = TokenPlan(config)
    return [TokenConfig.defaultPath, ThemeTestFile.defaultPath] + config.tokenSources + plan.files.map(\.path) + plan.ownedButUndeclared + plan.generatedFilePatterns
  }
}

extension BuiltinLane {
  /// The design-tokens lane's one option, declared once for the lane's options and its lookup.
  static let designTokensCheck = "--check"

  /// `run: design-tokens --check` (or `run: design-tokens`) in a lane: the same
  /// work and the same text as `duet design-tokens [--check] --root <the lane's tree>`.
  package static let designTokens = BuiltinLane(name: "design-tokens", options: [designTokensCheck], implicitInputs: { DesignTokens.implicitInputs($0.tree) }) { context in
    let outcome = DesignTokens.run(root: context.tree, check: context.arguments.contains(designTokensCheck))
    return BuiltinEnd(exitCode: outcome.exitCode, output: outcome.text.text)
  }
}
