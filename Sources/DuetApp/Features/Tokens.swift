import DuetSupport
import DuetTokens
import Foundation

/// `duet design-tokens`: write the Swift and Kotlin token files, or check them.
struct DesignTokensRequest: Sendable {
  var config: TokenConfigChoice
  var check = false
  var rewrite = false
  init(config: TokenConfigChoice) { self.config = config }
}

/// The report (exit 0 or 1), or the config's errors (exit 2, nothing written).
struct DesignTokensResponse: CommandResponse {
  var outcome: DesignTokens.Outcome
  var exitCode: Int32 { outcome.exitCode }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json { printout.json(outcome.json) }
    if case .failure(let diagnostics, _, _) = outcome {
      printout.diagnostics(diagnostics)
    } else if !format.json {
      printout.out(outcome.text)
    }
    return printout
  }
}

func designTokens(_ request: DesignTokensRequest) -> DesignTokensResponse {
  let config = request.config
  return DesignTokensResponse(outcome: DesignTokens.run(
    root: config.root, configPath: config.configPath, configURL: config.configURL, explicit: config.configURL != nil,
    check: request.check, rewrite: request.rewrite))
}

/// `duet theme-test`: every label on every surface, per theme and appearance.
struct ThemeTestRequest: Sendable {
  var config: TokenConfigChoice
  init(config: TokenConfigChoice) { self.config = config }
}

struct ThemeTestResponse: CommandResponse {
  var outcome: ThemeTest.Outcome
  var exitCode: Int32 { outcome.exitCode }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json { printout.json(outcome.json) }
    if case .failure(let diagnostics, _) = outcome {
      printout.diagnostics(diagnostics)
    } else if !format.json {
      printout.out(outcome.text)
    }
    return printout
  }
}

func themeTest(_ request: ThemeTestRequest) -> ThemeTestResponse {
  ThemeTestResponse(outcome: ThemeTest.run(root: request.config.root, configPath: request.config.configPath, configURL: request.config.configURL))
}

/// `duet contrast FOREGROUND BACKGROUND`: a quick ratio, without a config.
struct ContrastRequest: Sendable {
  var foreground: String
  var background: String
  /// The colour forms `contrast` reads, for its help and its errors.
  static let colourForms = TypedColor.forms
}

struct ContrastResponse: CommandResponse {
  var query: ContrastQuery
  var exitCode: Int32 { ExitCode.pass }
  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    if format.json { printout.json(query.json) } else { printout.out(query.text) }
    return printout
  }
}

/// Throws `UsageError` for a colour it cannot read.
func contrast(_ request: ContrastRequest) throws(UsageError) -> ContrastResponse {
  var colors: [TypedColor] = []
  for (word, role) in zip([request.foreground, request.background], ["foreground", "background"]) {
    guard let color = TypedColor(word) else {
      throw UsageError(message: "cannot read the \(role) colour '\(word)'; expected \(TypedColor.forms)", command: "contrast")
    }
    colors.append(color)
  }
  return ContrastResponse(query: ContrastQuery(colors[0], on: colors[1]))
}
