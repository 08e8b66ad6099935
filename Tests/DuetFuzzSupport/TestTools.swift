import Foundation

/// The programs some tests run (compilers, shells, validators), found where
/// `make check` installs them, with the command that installs a missing one.
/// A test that needs one fails with `missing(_:)` when it is not there: it is
/// never skipped.
package enum TestTools {
  /// This checkout: the folder holding `Package.swift`.
  package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// `.build/venv/bin` of this checkout, where `tools/install-deps test` puts the Python tools.
  package static var venvBin: String { repository.appendingPathComponent(".build/venv/bin").path }

  /// The path of `name`: on PATH, in this checkout's `.build/venv/bin`, or in
  /// the usual folders; nil when it is in none of them.
  package static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
    let folders = (path ?? "").split(separator: ":").map(String.init)
      + [venvBin, "/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"]
    return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// What to say when `name` is missing: the test that needs it, and the command that installs it.
  package static func missing(_ name: String, for purpose: String) -> String {
    let package = ["kotlinc": "kotlin", "groff": "groff-base"][name] ?? name
    let how = package == "check-jsonschema"
      ? "run `make test-deps` (it installs check-jsonschema into .build/venv; `make check` does it too)"
      : "run `make test-deps` (or `apt-get install -y \(package)`; `make check` does it too)"
    return "\(name) is not installed, and \(purpose) needs it: \(how)"
  }
}
