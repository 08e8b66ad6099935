import Foundation

/// Writes the planned files atomically (an unchanged file is not touched) and
/// removes the files a target owns that the config no longer declares.
public enum TokenWriter {
  /// Every path is checked before the first byte is written, so a refused
  /// path (a symbolic link out of the tree) leaves the tree as it was.
  public static func run(_ plan: TokenPlan, config: TokenConfig, root: URL) throws(TokenConfigError) -> TokenReport {
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
    for file in plan.files {
      do {
        let changed = try AtomicFile.write(Data(file.contents.utf8), to: file.path, in: root)
        report.entries.append(.init(path: file.path, status: changed ? .written : .unchanged))
      } catch {
        throw TokenConfigError(diagnostics: [Diagnostic("\(error)")])
      }
    }
    for path in plan.ownedButUndeclared {
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

  /// The `output:` key of the target a generated path belongs to.
  static func location(of path: String, in config: TokenConfig) -> SourceLocation? {
    if let swift = config.swift, path.hasSuffix(".swift") { return swift.outputLocation }
    if let kotlin = config.kotlin, path.hasSuffix(".kt") { return kotlin.outputLocation }
    return nil
  }
}
