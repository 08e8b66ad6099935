import Foundation
import DuetModel
import DuetSupport

/// One manifest entry made ready to check or write: its output resolved inside the
/// tree and the config its block should record.
struct MockTarget {
  var entry: MockEntry
  /// The output's absolute location, after refusing paths that leave the tree.
  var url: URL

  init(_ entry: MockEntry, root: URL) throws(MockError) {
    self.entry = entry
    func fail(_ message: String) -> MockError { MockError(output: entry.output, message: message, location: entry.location) }
    if let generator = entry.generator, MockInputs.holdsLineBreak(generator) {
      throw fail("'generator' must be one line, since the block records it on its config line")
    }
    if let bundle = entry.bundle, MockInputs.holdsLineBreak(bundle) {
      throw fail("'bundle' must be one line, since the block records it on its bundle line")
    }
    do {
      url = try TreePath.resolveForWriting(entry.output, in: root)
    } catch {
      throw fail("the output must be a file inside the tree (no '..', absolute paths or symbolic links)")
    }
  }

  /// The description and bundle the block should hold. A block the Duet toolchain's
  /// templates wrote (`template=... args=...`) keeps its own when the entry names no
  /// generator or bundle, so such trees check as they are. A `parity/manifest.yaml`
  /// row says exactly what its block must record.
  func expectedConfig(recorded: FingerprintBlock?) -> (description: String, bundle: String) {
    if let description = entry.configDescription {
      return (description, entry.bundle ?? "none")
    }
    if entry.generator == nil, entry.bundle == nil, let recorded, recorded.isTemplateShaped {
      return (recorded.description, recorded.bundle)
    }
    return (FingerprintBlock.description(generator: entry.generator), entry.bundle ?? "none")
  }

  /// Whether the output exists at all (a dangling or any other entry counts as existing).
  var exists: Bool {
    var info = stat()
    return lstat(url.path, &info) == 0
  }

  /// Every entry resolved, or an error for each one that cannot be (two entries
  /// writing one file among them).
  static func resolve(_ manifest: Manifest, root: URL) -> [Result<MockTarget, MockError>] {
    var claimed: [String: SourceLocation] = [:]
    return manifest.mocks.map { entry in
      let key = MockInputs.normalized(entry.output)
      if let first = claimed[key] {
        let place = first.file == entry.location.file ? "line \(first.line)" : "\(first.file):\(first.line)"
        return .failure(MockError(output: entry.output, message: "another mocks entry (\(place)) already writes this file", location: entry.location))
      }
      claimed[key] = entry.location
      do throws(MockError) {
        return .success(try MockTarget(entry, root: root))
      } catch {
        return .failure(error)
      }
    }
  }
}
