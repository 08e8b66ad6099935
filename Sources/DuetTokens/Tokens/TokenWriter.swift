import Foundation
import DuetModel
import DuetSupport

/// Writes the planned files atomically (an unchanged file is not touched) and
/// removes the files a target owns that the config no longer declares. A
/// target whose files the Duet toolchain's engine wrote is written in the
/// engine's layout, its words kept (`EngineLayout`), and a file of it whose
/// code is current is left as it is, so the engine's own whole-file `--check`
/// stays green in a shared tree; `rewrite` puts such files in duet's layout.
enum TokenWriter {
  /// Every path is checked before the first byte is written, so a refused
  /// path (a symbolic link out of the tree) leaves the tree as it was.
  static func run(_ plan: TokenPlan, config: TokenConfig, root: URL, rewrite: Bool = false) throws(TokenConfigError) -> TokenReport {
    var problems = DiagnosticList()
    for file in plan.files {
      do {
        _ = try TreePath.resolveForWriting(file.path, in: root)
      } catch {
        problems.add("refusing to write \(file.path): it leaves the tree (through '..', an absolute path or a symbolic link)", at: location(of: file.path, in: config))
      }
    }
    guard problems.isEmpty else { throw TokenConfigError(diagnostics: problems.items) }

    var report = TokenReport(mode: .write, configPath: config.path)
    // Each file is its own atomic write (temporary file, fsync, rename), so the
    // writes run in parallel and their fsyncs overlap; the report keeps plan order.
    // Folders first, one thread, so parallel writers never race to create the same one.
    for folder in Set(plan.files.map { ($0.path as NSString).deletingLastPathComponent }).sorted() where !folder.isEmpty {
      do {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
      } catch {
        throw TokenConfigError(diagnostics: [Diagnostic("cannot create \(folder): \(error.localizedDescription)")])
      }
    }
    // An engine-written target is written in the engine's layout; `rewrite`: duet's.
    let files = rewrite ? plan.files : EngineLayout.files(plan, config: config, root: root)
    let outcomes: [WriteOutcome?] = files.parallelMap { file in
      let outcome: WriteOutcome
      if !rewrite && keepsEngineFile(file, root: root) {
        outcome = .kept
      } else {
        do {
          outcome = .success(try AtomicFile.write(Data(file.contents.utf8), to: file.path, in: root))
        } catch {
          outcome = .failure(Diagnostic("\(error)"))
        }
      }
      return outcome
    }
    try record(outcomes, of: files, planned: plan.files, in: &report)
    for path in plan.undeclaredFiles(in: root) {
      guard let url = try? TreePath.resolveForWriting(path, in: root), FileManager.default.fileExists(atPath: url.path) else { continue }
      do {
        try FileManager.default.removeItem(at: url)
        report.entries.append(.init(path: path, status: .removed))
      } catch {
        throw TokenConfigError(diagnostics: [Diagnostic("cannot remove \(path): \(error.localizedDescription)")])
      }
    }
    return report
  }

  /// Each file's outcome as a report entry, in plan order; a file whose text
  /// is not the planned one was written in the engine's layout. Throws the
  /// failures, if any.
  private static func record(
    _ outcomes: [WriteOutcome?], of files: [GeneratedFile], planned: [GeneratedFile], in report: inout TokenReport
  ) throws(TokenConfigError) {
    var failures: [Diagnostic] = []
    for (index, outcome) in outcomes.enumerated() {
      let file = files[index]
      switch outcome {
      case .success(let changed):
        var entry = TokenReport.Entry(path: file.path, status: changed ? .written : .unchanged)
        entry.engineLayout = file.contents != planned[index].contents
        report.entries.append(entry)
      case .kept: report.entries.append(.init(path: file.path, status: .kept, comparedByCode: true))
      case .failure(let diagnostic): failures.append(diagnostic)
      case nil: failures.append(Diagnostic("cannot write \(file.path)"))
      }
    }
    guard failures.isEmpty else { throw TokenConfigError(diagnostics: failures) }
  }

  /// Whether the file on disk is the engine's and holds the code `file` would.
  static func keepsEngineFile(_ file: GeneratedFile, root: URL) -> Bool {
    guard let url = try? TreePath.resolveForWriting(file.path, in: root),
      let data = (try? PathGuard.readRegularFile(atAbsolute: url.path, displayPath: file.path))
    else { return false }
    let onDisk = String(decoding: data, as: UTF8.self)
    return onDisk != file.contents && EngineBanner.recognizes(onDisk) && CodeComparison.sameCode(onDisk, file.contents)
  }

  /// The `output:` key of the target a generated path belongs to.
  static func location(of path: String, in config: TokenConfig) -> SourceLocation? {
    if let swift = config.swift, path.hasSuffix(".swift") { return swift.outputLocation }
    if let kotlin = config.kotlin, path.hasSuffix(".kt") { return kotlin.outputLocation }
    return nil
  }
}

/// What each parallel write ended in: whether the file changed, or why it could not be written.
private enum WriteOutcome: Sendable {
  case success(Bool)
  case kept
  case failure(Diagnostic)
}
