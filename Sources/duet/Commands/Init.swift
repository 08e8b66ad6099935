import Foundation
import DuetApp
import DuetAdopt
import DuetMocks
import DuetTokens
import DuetRun
import DuetModel
import DuetOutput
import DuetSupport

/// `duet init`: survey an existing tree and write a commented `lanes/manifest.yaml`
/// whose lanes cover every module, saying what it found and why each lane exists.
enum InitCommand: Command {
  static let spec = CommandSpec(
    name: "init",
    summary: "survey the tree and write lanes/manifest.yaml: token, theme and mock checks, one lane per Gradle module and Swift package",
    usage: "duet init [--force] [--root DIR]",
    options: [
      OptionSpec(name: "--force", value: nil, help: "replace an existing lanes/manifest.yaml (its modules: and mocks: are kept)"),
      OptionSpec(name: "--root", value: "DIR", help: "the tree root (default: the nearest folder up with lanes/manifest.yaml, parity/manifest.yaml or .git, else the working directory)"),
    ],
    exitCodes: [
      ExitCodeDoc(code: 0, meaning: "written"),
      ExitCodeDoc(code: 1, meaning: "lanes/manifest.yaml exists (nothing written; --force replaces it)"),
      ExitCodeDoc(code: 2, meaning: "parity/manifest.yaml has errors, or the file cannot be written"),
    ],
    examples: [
      HelpExample(command: "duet init", what: "survey this tree and write lanes/manifest.yaml"),
      HelpExample(command: "duet init --force", what: "write it again after adding a module (its modules: and mocks: are kept)"),
    ]
  )

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let root = try initRoot(arguments)
    let target = Manifest.defaultPath
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: root.appendingPathComponent(target).path, isDirectory: &isFolder)
    if exists && !arguments.flag("--force") {
      console.err("duet init: \(target) already exists in \(root.path); nothing written (pass --force to replace it)")
      return ExitCode.failed
    }
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
        console.err("duet init: error: \(error)")
        return ExitCode.usage
      }
    }
    var survey = TreeSurvey.survey(root: root, parity: parity)
    if exists, !isFolder.boolValue {
      // --force replaces the lanes, never the mock entries and module globs no survey can rebuild.
      guard let kept = keptSections(root: root, console: console) else { return ExitCode.usage }
      survey.kept = kept
    }
    let plan = AdoptionPlan(survey)
    let text = ManifestWriter.render(plan)
    do {
      try AtomicFile.write(Data(text.utf8), to: target, in: root)
    } catch {
      console.err("duet init: error: \(error)")
      return ExitCode.usage
    }
    report(plan, root: root, replaced: exists, console: console)
    switch scaffold {
    case .success(let theme)?:
      console.out("duet init: wrote \(theme.path), a starting theme test: \(theme.labels.count) label(s) on \(theme.surfaces.count) surface(s), main at AA\(theme.highContrast ? ", highContrast at AAA" : ""); its comments say how duet guessed")
    case .failure(.nothingToPair(let why))?:
      console.out("duet init: no theme test written: \(why); write \(ThemeTestFile.fileName) beside the config (docs/theme-tests.md)")
    default:
      break
    }
    return ExitCode.pass
  }

  /// `--root`, else the tree around the working directory (a git work tree
  /// counts: the tree may have no manifest yet), else the working directory.
  static func initRoot(_ arguments: ParsedArguments) throws -> URL {
    let cwd = arguments.invocation.workingDirectory
    if arguments.value("--root") != nil {
      return try treeRoot(arguments)
    }
    return (try? TreeRoot.find(from: cwd, override: nil, markers: TreeManifest.rootMarkers + [".git"])) ?? cwd.standardizedFileURL
  }

  /// The `modules:` and `mocks:` of the manifest being replaced, or nil (said
  /// on stderr) when they cannot be read and so would be lost.
  static func keptSections(root: URL, console: Console) -> KeptSections? {
    let target = Manifest.defaultPath
    do {
      return try KeptSections.read(root: root)
    } catch {
      switch error {
      case .unreadable(let diagnostics):
        console.err("duet init: error: \(target) cannot be replaced: it does not read as YAML, so duet cannot keep its modules: and mocks: (if it has them); fix it or move the file aside first")
        console.err(diagnostics.map(\.description).joined(separator: "\n"))
      case .broken(let diagnostics):
        console.err("duet init: error: \(target) cannot be replaced: its modules: or mocks: section would be lost; fix it or move the file aside first")
        console.err(diagnostics.map(\.description).joined(separator: "\n"))
      }
      return nil
    }
  }

  /// What the survey found, each lane with its reason, and what was written.
  static func report(_ plan: AdoptionPlan, root: URL, replaced: Bool, console: Console) {
    let target = Manifest.defaultPath
    console.out("duet init: surveyed \(root.path)")
    if plan.findings.isEmpty {
      console.out("found: no token config, parity manifest, Gradle settings or Package.swift")
    } else {
      console.out("found:")
      for line in HangingList.lines(plan.findings.map { ($0.subject, $0.detail) }, maxWidth: console.width) { console.out(line) }
    }
    if !plan.lanes.isEmpty {
      console.out("lanes, and why each exists:")
      for line in HangingList.lines(plan.lanes.map { ($0.name, $0.reason) }, maxWidth: console.width) { console.out(line) }
    }
    if !plan.outside.isEmpty {
      console.out("outside the manifest (checks duet cannot run as a lane; listed as comments in \(target)):")
      for line in HangingList.lines(plan.outside.map { ($0.subject, $0.reason) }, maxWidth: console.width) { console.out(line) }
    }
    let verb = replaced ? "replaced" : "wrote"
    if plan.lanes.isEmpty {
      console.out("duet init: \(verb) \(target) with one example lane (an echo); replace it with your checks, then 'duet verify' runs them")
    } else {
      console.out("duet init: \(verb) \(target) (\(plan.lanes.count) lane(s)); 'duet lanes' lists them, 'duet verify' runs them")
    }
  }
}
