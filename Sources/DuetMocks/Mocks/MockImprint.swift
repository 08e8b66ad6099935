import Foundation
import DuetModel
import DuetSupport

/// `duet mocks`: runs each entry's generator when it has one, then writes the
/// fingerprint block over the body. Without a generator the body is kept byte for
/// byte, and a body that no longer matches its recorded hash (a hand edit) or was
/// generated under another config or bundle is refused unless `acceptBody`. Every write is atomic and an unchanged file is not touched.
package enum MockImprint {
  package struct Options: Sendable {
    var acceptBody = false
    /// Runs an entry's generator: `MockGenerator.shell(environment:)` with the invocation's environment.
    var generator: MockGenerator.Runner
    package init(acceptBody: Bool = false, generator: @escaping MockGenerator.Runner) {
      self.acceptBody = acceptBody
      self.generator = generator
    }
  }

  package static func run(_ manifest: Manifest, root: URL, options: Options) -> MockImprintReport {
    var report = MockImprintReport()
    for target in MockTarget.resolve(manifest, root: root) {
      switch target {
      case .failure(let error): report.errors.append(error)
      case .success(let target):
        do {
          switch try imprint(target, root: root, options: options) {
          case .success(let file): report.files.append(file)
          case .failure(let refusal): report.refused.append(refusal)
          }
        } catch {
          report.errors.append(error)
        }
      }
    }
    return report
  }

  /// A body duet will not overwrite without `--accept-body` (exit 1).
  package struct Refusal: Error, Sendable, Equatable {
    var output: String
    var message: String
    package var line: TerminalLine { "duet mocks: refused \(output): \(message)" }
  }

  static func imprint(_ target: MockTarget, root: URL, options: Options) throws(MockError) -> Result<MockImprintReport.File, Refusal> {
    let entry = target.entry
    // Inputs first: a missing root or an unreadable file stops the entry before anything runs.
    let inputs = try MockInputs.collect(entry, root: root)
    // What the file held before anything ran, to say whether this run changed it.
    let before = target.exists ? try? MockFileReader(absolutePath: target.url.path, displayPath: entry.output).readRest() : nil
    try generate(target, root: root, options: options)
    let bytes = try readOutput(target)

    let recorded: FingerprintBlock?
    let body: ArraySlice<UInt8>
    switch splitBlock(bytes, of: target, options: options) {
    case .failure(let refusal): return .failure(refusal)
    case .success(let split): (recorded, body) = split
    }

    let config = target.expectedConfig(recorded: recorded)
    if let refusal = configRefusal(target, recorded: recorded, config: config, options: options) { return .failure(refusal) }
    let block = FingerprintBlock(bundle: config.bundle, description: config.description, inputs: inputs, bodyHash: Digest.sha256(Data(body)))
    // A parity row's file is written, block and all, by the Duet mock templates:
    // duet checks it but never records new inputs over a body they made from old ones.
    if entry.configDescription != nil, !options.acceptBody, recorded?.inputs != block.inputs {
      let why = recorded == nil ? "it has no fingerprint block" : "its inputs changed since the templates wrote it ('duet mocks --check' names them)"
      return .failure(Refusal(output: entry.output, message: "\(why), and the Duet mock templates make it, not duet; regenerate it with them, or record these inputs over this body with 'duet mocks --accept-body'"))
    }
    var data = Data(block.rendered().utf8)
    data.append(contentsOf: body)
    do {
      try AtomicFile.write(data, to: entry.output, in: root)
    } catch {
      throw mockError(target, "\(error)")
    }
    let changed = before.map { Data($0) != data } ?? true
    return .success(MockImprintReport.File(output: entry.output, changed: changed, generated: entry.generator != nil, inputCount: inputs.count))
  }

  /// An error about `target`, located at the manifest entry that declares it.
  static func mockError(_ target: MockTarget, _ message: String) -> MockError {
    MockError(output: target.entry.output, message: message, location: target.entry.location)
  }

  /// Runs the entry's generator, if it has one; either way the file must exist after.
  static func generate(_ target: MockTarget, root: URL, options: Options) throws(MockError) {
    let entry = target.entry
    guard let command = entry.generator else {
      if !target.exists { throw mockError(target, "\(entry.output) does not exist and the entry names no generator to make it") }
      return
    }
    let outcome: MockGenerator.Outcome
    do {
      outcome = try options.generator(command, root, target.url)
    } catch {
      throw mockError(target, "cannot run the generator '\(command)': \(error)")
    }
    guard outcome.exitCode == 0 else {
      let how = outcome.exitCode.map { "exited with \($0)" } ?? "was ended by signal \(outcome.signal ?? 0)"
      let tail = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).suffix(10).joined(separator: "\n")
      throw mockError(target, "the generator '\(command)' \(how)\(tail.isEmpty ? "" : "; its last output:\n" + tail)")
    }
    guard target.exists else {
      throw mockError(target, "the generator '\(command)' succeeded but did not write \(entry.output) (duet passes its path in DUET_MOCK_OUTPUT)")
    }
  }

  /// The whole file, block and body, with a read error said in words.
  static func readOutput(_ target: MockTarget) throws(MockError) -> [UInt8] {
    let output = target.entry.output
    do {
      let reader = try MockFileReader(absolutePath: target.url.path, displayPath: output)
      return try reader.readRest()
    } catch {
      if case .cannotRead(_, let code) = error { throw mockError(target, "cannot read \(output): \(String(cString: strerror(code)))") }
      throw mockError(target, "\(error)")
    }
  }

  /// The block the file records and the body after it, or a refusal: without a
  /// generator, a hand-edited body or an unreadable block is kept only with `acceptBody`.
  static func splitBlock(
    _ bytes: [UInt8], of target: MockTarget, options: Options
  ) -> Result<(recorded: FingerprintBlock?, body: ArraySlice<UInt8>), Refusal> {
    let entry = target.entry
    switch FingerprintParser.parse(bytes) {
    case .none:
      return .success((nil, bytes[...]))
    case .block(let block, let start):
      let body = bytes[start...]
      if entry.generator == nil && !options.acceptBody {
        let now = Digest.sha256(Data(body))
        if now != block.bodyHash {
          return .failure(Refusal(output: entry.output, message: "the body was edited after imprinting (the block records sha256:\(block.bodyHash.prefix(12))…, the body is sha256:\(now.prefix(12))…); regenerate it, or keep the edit with 'duet mocks --accept-body'"))
        }
      }
      return .success((block, body))
    case .malformed(let problem):
      guard entry.generator != nil || options.acceptBody else {
        return .failure(Refusal(output: entry.output, message: "its fingerprint block is unreadable (\(problem)); fix or delete the block, or keep the bytes after it as the body with 'duet mocks --accept-body'"))
      }
      return .success((nil, bytes[min(problem.bodyStart, bytes.count)...]))
    }
  }

  /// Without a generator duet only re-imprints: a body made under another config
  /// (a row's template, args or bundle changed) is stale, and a new config line
  /// over it would hide that.
  static func configRefusal(
    _ target: MockTarget, recorded: FingerprintBlock?, config: (description: String, bundle: String), options: Options
  ) -> Refusal? {
    guard target.entry.generator == nil, !options.acceptBody, let recorded,
       recorded.description != config.description || recorded.bundle != config.bundle else { return nil }
    let was = recorded.description != config.description ? "config '\(recorded.description)'" : "bundle '\(recorded.bundle)'"
    let now = recorded.description != config.description ? "'\(config.description)'" : "'\(config.bundle)'"
    return Refusal(output: target.entry.output, message: "the body was generated under \(was), the entry now says \(now); regenerate the file with its templates, or record the new one over this body with 'duet mocks --accept-body'")
  }
}

/// What `duet mocks` did, ready to print.
package struct MockImprintReport: Sendable {
  struct File: Sendable, Equatable {
    var output: String
    var changed: Bool
    var generated: Bool
    var inputCount: Int
  }

  var files: [File] = []
  package var refused: [MockImprint.Refusal] = []
  package var errors: [MockError] = []

  init() {}

  /// 0 done, 1 a body was refused, 2 an entry could not be written.
  package var exitCode: Int32 {
    if !errors.isEmpty { return 2 }
    return refused.isEmpty ? 0 : 1
  }

  /// Each file changed, then a summary; refusals and errors are separate, for stderr.
  package var lines: [TerminalLine] {
    var lines = files.filter(\.changed).map { file -> TerminalLine in
      "wrote \(file.output) (\(file.inputCount) input(s)\(file.generated ? ", generated" : ""))"
    }
    let total = files.count + refused.count + errors.count
    let written = files.filter(\.changed).count
    var summary: TerminalLine = "duet mocks: \(written) of \(total) mock file(s) written"
    let unchanged = files.count - written
    if unchanged > 0 { summary += ", \(unchanged) already up to date" }
    if !refused.isEmpty { summary += ", \(refused.count) refused" }
    if !errors.isEmpty { summary += ", \(errors.count) failed" }
    lines.append(summary)
    return lines
  }

  /// Errors and refusals, then the report: what a built-in lane logs, its
  /// lines as `duet mocks` prints them.
  var text: String {
    (errors.map { "\($0.diagnostic)" } + refused.map(\.line) + lines).joined(separator: "\n").text + "\n"
  }
}
