import Foundation
import DuetModel
import DuetSupport

extension BuiltinLane {
  /// The mocks lane's one option, declared once for the lane's options and its lookup.
  static let mocksCheck = "--check"

  /// `run: mocks --check` (or `run: mocks`) in a lane: the same work and the same
  /// text as `duet mocks [--check] --root <the lane's tree>`.
  package static let mocks = BuiltinLane(name: "mocks", options: [mocksCheck], implicitInputs: mockInputs) { context in
    let manifest: Manifest
    do throws(ManifestError) {
      manifest = try TreeManifest.load(root: context.tree, builtins: context.vocabulary).manifest
    } catch {
      return BuiltinEnd(exitCode: 2, output: error.description + "\n")
    }
    if context.arguments.contains(mocksCheck) {
      let report = MockCheck.run(manifest, root: context.tree)
      return BuiltinEnd(exitCode: report.exitCode, output: report.text)
    }
    let report = MockImprint.run(manifest, root: context.tree, options: MockImprint.Options(generator: MockGenerator.shell(environment: context.environment)))
    return BuiltinEnd(exitCode: report.exitCode, output: report.text)
  }

  /// The manifests, every mock output and every file under its source roots: what
  /// `mocks --check` reads, so the cache never hides a changed source or output.
  @Sendable static func mockInputs(_ context: BuiltinContext) -> [String] {
    guard let manifest = try? TreeManifest.load(root: context.tree, builtins: context.vocabulary).manifest else {
      return TreeManifest.rootMarkers
    }
    var patterns = TreeManifest.rootMarkers
    for entry in manifest.mocks {
      patterns.append(entry.output)
      for source in entry.sources {
        patterns += entry.include.map { source + "/" + $0 }
      }
    }
    return patterns
  }
}
