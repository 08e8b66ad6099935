import DuetModel
import DuetSupport

/// One way a mock file differs from what its entry and its inputs say, as a line
/// of `duet mocks --check` (docs/mocks.md): `stale:`, `unlisted:`, `missing:` for
/// inputs, `body:` and `config:` for the file, `block:` and `output:` for a block
/// or a file that cannot be read as one.
struct MockFinding: Sendable, Equatable {
  enum Kind: String, Sendable {
    case stale, unlisted, missing, body, config, block, output
  }

  var kind: Kind
  /// The input it is about, for the input kinds.
  var path: String?
  var message: String

  init(_ kind: Kind, path: String? = nil, _ message: String) {
    self.kind = kind
    self.path = path
    self.message = message
  }

  /// `stale: Sources/A.swift — content differs from the recorded hash`, or `body: hash differs — ...`.
  var line: TerminalLine {
    if let path { return "\(kind.rawValue): \(path) — \(message)" }
    return "\(kind.rawValue): \(message)"
  }
}

/// A mock file as `--check` found it: no findings means up to date.
struct MockFileStatus: Sendable, Equatable {
  var output: String
  var inputCount: Int
  var findings: [MockFinding]
  /// Whether the Duet mock templates write it (a `parity/manifest.yaml` row),
  /// so that it is regenerated with them rather than with `duet mocks`.
  var madeByTemplates = false
  var isUpToDate: Bool { findings.isEmpty }
}
