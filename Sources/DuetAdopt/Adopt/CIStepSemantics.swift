import Foundation
import DuetModel
import DuetSupport

/// What GitHub gives a `run:` step besides its text: the shell it runs in
/// (`shell:`), the folder (`working-directory:`) and the environment (`env:`),
/// each from the step or else from the job's and the workflow's `defaults.run`
/// and `env:`. A lane proposed from the step keeps them.
extension CIWorkflowChecks.Check {
  /// The shells a lane can run as GitHub does; any other is left to the CI.
  static let knownShells: Set<String> = ["bash", "sh"]

  /// Reads the step's shell, folder and environment; returns why the step
  /// cannot be a lane, or nil.
  mutating func readSemantics(step: YAMLNode, scopes: [YAMLNode]) -> String? {
    // The step's own value wins, then the job's `defaults.run`, then the workflow's.
    func inherited(_ key: String) -> String? {
      step[key]?.scalar ?? scopes.reversed().lazy.compactMap { $0["defaults"]?["run"]?[key]?.scalar }.first
    }
    if let shell = inherited("shell") {
      guard Self.knownShells.contains(shell) else {
        return "it runs in the shell '\(shell)', which a lane's sh: does not run as GitHub does; write its lane by hand"
      }
      self.shell = shell
    }
    if let folder = inherited("working-directory") {
      if folder.contains("${{") { return "its working-directory uses ${{ }} expressions, which only the CI expands" }
      let parts = folder.split(separator: "/").map(String.init).filter { $0 != "." }
      if folder.hasPrefix("/") || parts.contains("..") || folder.hasPrefix("~") {
        return "its working-directory \(folder) is outside the checkout"
      }
      workingDirectory = parts.isEmpty ? nil : parts.joined(separator: "/")
    }
    for pair in (scopes + [step]).flatMap({ $0["env"]?.mapping ?? [] }) {
      guard let name = pair.key.scalar, let value = pair.value.scalar else { continue }
      env.removeAll { $0.name == name }
      expressionEnv.removeAll { $0 == name }
      if value.contains("${{") { expressionEnv.append(name) } else { env.append(EnvironmentEntry(name: name, value: value)) }
    }
    return nil
  }

  /// The lane's `sh:`: the step's text as GitHub runs it. GitHub runs a step
  /// with no `shell:` as `bash -e {0}`, `shell: bash` as
  /// `bash --noprofile --norc -eo pipefail {0}` and `shell: sh` as `sh -e {0}`;
  /// a lane's `sh:` is run by `/bin/sh -c`, so anything but one plain command
  /// line is handed to that shell with the same options. `{0}` is a file of
  /// the script; `-c` with the script as one word runs the same text.
  var laneCommand: String {
    let plain = command.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || " ./_-:=+@%,".unicodeScalars.contains(scalar))
    }
    if plain { return command }
    return shellPrefix + " -c " + ShellWord.quoted(command).text
  }

  /// The program and options GitHub runs the step's script with.
  var shellPrefix: String {
    switch shell {
    case "bash": return "bash --noprofile --norc -eo pipefail"
    case "sh": return "sh -e"
    default: return "bash -e"
    }
  }

  /// Whether the lane's command needs bash on `PATH`.
  var needsBash: Bool { laneCommand != command && shell != "sh" }
}
