import Foundation
import DuetModel
import DuetSupport

/// `duet mocks --check`: compares each mock file's block with its inputs on disk,
/// its body and its entry, and writes nothing.
package enum MockCheck {
  /// Checks every `mocks:` entry of the manifest.
  package static func run(_ manifest: Manifest, root: URL) -> MockCheckReport {
    var report = MockCheckReport()
    for target in MockTarget.resolve(manifest, root: root) {
      switch target {
      case .failure(let error): report.errors.append(error)
      case .success(let target):
        do {
          report.files.append(try check(target, root: root))
        } catch {
          report.errors.append(error)
        }
      }
    }
    return report
  }

  /// One entry's findings; throws only for what makes a check impossible
  /// (a missing source root, an unreadable file).
  static func check(_ target: MockTarget, root: URL) throws(MockError) -> MockFileStatus {
    let entry = target.entry
    let inputs = try MockInputs.collect(entry, root: root)
    var status = MockFileStatus(output: entry.output, inputCount: inputs.count, findings: [], madeByTemplates: entry.configDescription != nil)
    guard target.exists else {
      status.findings.append(MockFinding(.output, "the file does not exist"))
      return status
    }
    func fail(_ error: FileError) -> MockError {
      if case .cannotRead(_, let code) = error {
        return MockError(output: entry.output, message: "cannot read \(entry.output): \(String(cString: strerror(code)))", location: entry.location)
      }
      return MockError(output: entry.output, message: "\(error)", location: entry.location)
    }
    let block: FingerprintBlock
    var digest = Digest()
    do {
      let reader = try MockFileReader(absolutePath: target.url.path, displayPath: entry.output)
      switch try FingerprintParser.parse(reader) {
      case .none:
        status.findings.append(MockFinding(.block, "none — the file has no fingerprint block at its top"))
        return status
      case .malformed(let problem):
        status.findings.append(MockFinding(.block, "unreadable — \(problem)"))
        return status
      case .block(let parsed, _):
        block = parsed
        try reader.hashRest(into: &digest)
      }
    } catch {
      throw fail(error)
    }
    status.findings = compare(block, bodyHash: digest.hex(), inputs: inputs, target: target)
    return status
  }

  /// The findings for a readable block, in the order docs/mocks.md shows them.
  static func compare(_ block: FingerprintBlock, bodyHash: String, inputs: [FingerprintBlock.Input], target: MockTarget) -> [MockFinding] {
    var findings: [MockFinding] = []
    var recorded: [String: String] = [:]
    for input in block.inputs { recorded[input.path] = input.sha256 }
    let present = Set(inputs.map(\.path))
    for input in inputs {
      if let hash = recorded[input.path], hash != input.sha256 {
        findings.append(MockFinding(.stale, path: input.path, "content differs from the recorded hash"))
      }
    }
    for input in inputs where recorded[input.path] == nil {
      findings.append(MockFinding(.unlisted, path: input.path, "under a source root, not in the block"))
    }
    let gone = block.inputs.filter { !present.contains($0.path) }.sorted { Glob.precedes($0.path, $1.path) }
    for input in gone {
      findings.append(MockFinding(.missing, path: input.path, "in the block, gone from disk"))
    }
    if bodyHash != block.bodyHash {
      findings.append(MockFinding(.body, "hash differs — the output was edited after imprinting"))
    }
    let expected = target.expectedConfig(recorded: block)
    if Digest.sha256(block.description) != block.configHash {
      findings.append(MockFinding(.config, "hash differs — the description was edited after imprinting"))
    }
    if block.description != expected.description {
      findings.append(MockFinding(.config, "the block records \"\(block.description)\", the entry says \"\(expected.description)\""))
    }
    if block.bundle != expected.bundle {
      findings.append(MockFinding(.config, "the block records bundle \"\(block.bundle)\", the entry says \"\(expected.bundle)\""))
    }
    return findings
  }
}

/// Everything `duet mocks --check` found, ready to print.
package struct MockCheckReport: Sendable {
  var files: [MockFileStatus] = []
  package var errors: [MockError] = []

  init() {}

  var stale: [MockFileStatus] { files.filter { !$0.isUpToDate } }

  /// 0 every file up to date, 1 a file is stale, 2 a file could not be checked.
  package var exitCode: Int32 {
    if !errors.isEmpty { return 2 }
    return stale.isEmpty ? 0 : 1
  }

  /// The report as docs/mocks.md lays it out; the errors' own messages are separate
  /// (`errors`), for stderr, and joined in by `text`.
  package var lines: [TerminalLine] {
    if errors.isEmpty && stale.isEmpty {
      return ["duet mocks --check: \(files.count) mock file(s) up to date"]
    }
    var lines: [TerminalLine] = ["duet mocks --check: FAIL"]
    for file in stale {
      lines.append("  \(file.output) is stale:")
      for finding in file.findings { lines.append("    " + finding.line) }
    }
    if !errors.isEmpty { lines.append("  \(errors.count) mock file(s) could not be checked: \(errors.map(\.output).joined(separator: ", "))") }
    if stale.contains(where: { !$0.madeByTemplates }) { lines.append("regenerate and commit: duet mocks") }
    let templated = stale.filter(\.madeByTemplates).map(\.output)
    if !templated.isEmpty { lines.append("regenerate with the Duet mock templates and commit: \(templated.joined(separator: ", "))") }
    return lines
  }

  /// Errors first, then the report: what a built-in lane logs, its lines as
  /// `duet mocks --check` prints them.
  var text: String {
    (errors.map { "\($0.diagnostic)" } + lines).joined(separator: "\n").text + "\n"
  }
}
