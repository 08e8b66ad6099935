import DuetModel
import DuetSupport

/// The fingerprint block at the top of a generated mock file (docs/mocks.md), in the
/// exact format the Duet toolchain's mock templates write, so trees they made check
/// as they are and files duet writes read back in the toolchain:
///
/// ```
/// // mock-templates:fingerprint v1
/// // bundle: <generator version>
/// // config: sha256:<hex of the description that follows> <description>
/// // input: sha256:<hex> <root-relative path>      (one line per input, sorted)
/// // body: sha256:<hex of every byte after the end line>
/// // mock-templates:end
/// ```
struct FingerprintBlock: Sendable, Equatable {
  /// One fingerprinted source file: its path relative to the tree root and the SHA-256 of its bytes.
  struct Input: Sendable, Equatable, Hashable {
    var path: String
    var sha256: String
  }

  static let startLine = "// mock-templates:fingerprint v1"
  static let startPrefix = "// mock-templates:fingerprint"
  static let endLine = "// mock-templates:end"

  /// The generator's version, or `none`.
  var bundle: String
  /// The hash recorded on the `config:` line; for a block duet renders it is always
  /// the SHA-256 of `description`, for a parsed one it is whatever the file says.
  var configHash: String
  /// The text after the config hash, e.g. `generator=none` or a Duet-shaped
  /// `template=<file> args=<a;b>`.
  var description: String
  var inputs: [Input]
  var bodyHash: String

  init(bundle: String, configHash: String, description: String, inputs: [Input], bodyHash: String) {
    self.bundle = bundle
    self.configHash = configHash
    self.description = description
    self.inputs = inputs
    self.bodyHash = bodyHash
  }

  /// A block for these inputs and body, with the config hash computed from the
  /// description and the inputs sorted by path bytes, whatever order they came in.
  init(bundle: String?, description: String, inputs: [Input], bodyHash: String) {
    self.init(
      bundle: bundle ?? "none",
      configHash: Digest.sha256(description),
      description: description,
      inputs: inputs.sorted { Glob.precedes($0.path, $1.path) },
      bodyHash: bodyHash)
  }

  /// The description a `lanes/manifest.yaml` entry records: `generator=<command>` or `generator=none`.
  static func description(generator: String?) -> String {
    "generator=\(generator ?? "none")"
  }

  /// Whether the description is a Duet-shaped row (`template=<file> args=...`),
  /// written by the toolchain's own templates rather than from a manifest entry.
  var isTemplateShaped: Bool { description.hasPrefix("template=") }

  /// The block's lines, each ending in `\n`; the body follows directly.
  func rendered() -> String {
    var text = FingerprintBlock.startLine + "\n"
    text += "// bundle: \(bundle)\n"
    text += "// config: sha256:\(configHash) \(description)\n"
    for input in inputs { text += "// input: sha256:\(input.sha256) \(input.path)\n" }
    text += "// body: sha256:\(bodyHash)\n"
    text += FingerprintBlock.endLine + "\n"
    return text
  }
}
