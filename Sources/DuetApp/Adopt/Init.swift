import DuetAdopt
import DuetModel
import DuetOutput
import DuetSupport
import DuetTokens
import Foundation

/// `duet init`: survey the tree and write a commented `lanes/manifest.yaml`,
/// and a starting theme test beside the token config.
struct InitRequest: Sendable {
  var root: URL
  /// `--force`: replace an existing manifest (its `modules:` and `mocks:` are kept).
  var force = false
  init(root: URL) { self.root = root }

  /// `root` as given (`--root`), else the tree around the working folder (a git
  /// work tree counts: the tree may have no manifest yet), else the working folder.
  static func find(workingDirectory: URL, root override: String?) throws -> InitRequest {
    if override != nil { return InitRequest(root: try TreeManifest.root(from: workingDirectory, override: override)) }
    let found = try? TreeRoot.find(from: workingDirectory, override: nil, markers: TreeManifest.rootMarkers + [".git"])
    return InitRequest(root: found ?? workingDirectory.standardizedFileURL)
  }
}

enum InitResponse: CommandResponse {
  /// The manifest is there and `--force` was not given: nothing written (exit 1).
  case exists(root: URL)
  /// Written: what the survey found, whether a manifest was replaced, and the theme test's fate.
  case written(AdoptionPlan, root: URL, replaced: Bool, themeTest: Result<ThemeTestScaffold.Scaffold, ThemeTestScaffold.Skip>?)

  var exitCode: Int32 {
    if case .exists = self { return ExitCode.failed }
    return ExitCode.pass
  }

  func printout(_ format: TextFormat) -> Printout {
    var printout = Printout()
    switch self {
    case .exists(let root):
      printout.err("duet init: \(Manifest.defaultPath) already exists in \(root.path); nothing written (pass --force to replace it)")
    case .written(let plan, let root, let replaced, let scaffold):
      InitReport.lines(plan, root: root, replaced: replaced, width: format.width, into: &printout)
      switch scaffold {
      case .success(let theme)?:
        printout.out("duet init: wrote \(theme.path), a starting theme test: \(theme.labels.count) label(s) on \(theme.surfaces.count) surface(s), main at AA\(theme.highContrast ? ", highContrast at AAA" : ""); its comments say how duet guessed")
      case .failure(.nothingToPair(let why))?:
        printout.out("duet init: no theme test written: \(why); write \(ThemeTestFile.fileName) beside the config (docs/theme-tests.md)")
      default:
        break
      }
    }
    return printout
  }
}

/// Writes the manifest (and the theme test). Throws the parity manifest's
/// errors, and `CommandFailure` (exit 2) for a file that cannot be written or
/// a manifest whose kept sections cannot be read.
func initTree(_ request: InitRequest) throws -> InitResponse {
  let root = request.root
  let target = Manifest.defaultPath
  var isFolder: ObjCBool = false
  let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(target).path, isDirectory: &isFolder)
  if exists && !request.force { return .exists(root: root) }
  var parity: ParityManifest?
  if ParityManifestLoader.exists(root: root) {
    parity = try ParityManifestLoader.load(root: root)
  }
  // A starting theme test, so the theme-test lane has something to check (issue 30).
  let scaffold = ThemeTestScaffold.make(root: root)
  if case .success(let theme)? = scaffold {
    do {
      try AtomicFile.write(Data(theme.text.utf8), to: theme.path, in: root)
    } catch {
      throw CommandFailure(message: "duet init: error: \(error)", code: ExitCode.usage)
    }
  }
  var survey = TreeSurvey.survey(root: root, parity: parity)
  if exists, !isFolder.boolValue {
    // --force replaces the lanes, never the mock entries and module globs no survey can rebuild.
    survey.kept = try InitReport.keptSections(root: root)
  }
  let plan = AdoptionPlan(survey)
  do {
    try AtomicFile.write(Data(ManifestWriter.render(plan).utf8), to: target, in: root)
  } catch {
    throw CommandFailure(message: "duet init: error: \(error)", code: ExitCode.usage)
  }
  return .written(plan, root: root, replaced: exists, themeTest: scaffold)
}

/// What `init` says: the survey's findings, each lane with its reason, and what was written.
enum InitReport {
  /// The `modules:` and `mocks:` of the manifest being replaced; a `CommandFailure`
  /// when they cannot be read and so would be lost.
  static func keptSections(root: URL) throws(CommandFailure) -> KeptSections {
    let target = Manifest.defaultPath
    do {
      return try KeptSections.read(root: root)
    } catch {
      let (why, diagnostics): (String, [Diagnostic])
      switch error {
      case .unreadable(let list):
        (why, diagnostics) = ("it does not read as YAML, so duet cannot keep its modules: and mocks: (if it has them)", list)
      case .broken(let list):
        (why, diagnostics) = ("its modules: or mocks: section would be lost", list)
      }
      throw CommandFailure(message: "duet init: error: \(target) cannot be replaced: \(why); fix it or move the file aside first\n"
                             + diagnostics.map(\.description).joined(separator: "\n"), code: ExitCode.usage)
    }
  }

  static func lines(_ plan: AdoptionPlan, root: URL, replaced: Bool, width: Int, into printout: inout Printout) {
    let target = Manifest.defaultPath
    printout.out("duet init: surveyed \(root.path)")
    if plan.findings.isEmpty {
      printout.out("found: no token config, parity manifest, Gradle settings or Package.swift")
    } else {
      printout.out("found:")
      for line in HangingList.lines(plan.findings.map { ("\($0.subject)", "\($0.detail)") }, maxWidth: width) { printout.out(line) }
    }
    if !plan.lanes.isEmpty {
      printout.out("lanes, and why each exists:")
      for line in HangingList.lines(plan.lanes.map { ("\($0.name)", "\($0.reason)") }, maxWidth: width) { printout.out(line) }
    }
    if !plan.outside.isEmpty {
      printout.out("outside the manifest (checks duet cannot run as a lane; listed as comments in \(target)):")
      for line in HangingList.lines(plan.outside.map { ("\($0.subject)", "\($0.reason)") }, maxWidth: width) { printout.out(line) }
    }
    let verb = replaced ? "replaced" : "wrote"
    if plan.lanes.isEmpty {
      printout.out("duet init: \(verb) \(target) with one example lane (an echo); replace it with your checks, then 'duet verify' runs them")
    } else {
      printout.out("duet init: \(verb) \(target) (\(plan.lanes.count) lane(s)); 'duet lanes' lists them, 'duet verify' runs them")
    }
  }
}
