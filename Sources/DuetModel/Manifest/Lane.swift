import DuetSupport

/// One step of a verify run, as the manifest declares it.
package struct Lane: Sendable, Equatable {
  /// The most `retries` a lane may have: more is a loop, not a retry.
  static let maxRetries = 10
  /// The longest `timeout` a lane (or `--timeout`) may set: 7 days.
  package static let maxTimeout: Double = 7 * 86400
  /// The longest lane name: its log file `<name>.attempt-N.log` must fit in a
  /// file name (255 bytes) on every file system.
  package static let maxNameLength = 200

  /// What a lane runs: a built-in duet command in-process, or a shell command.
  package enum Step: Sendable, Equatable {
    /// `run: design-tokens --check`: the command word and its arguments.
    case builtin(command: String, arguments: [String])
    /// `sh: ...`, run by `/bin/sh -c`.
    case shell(String)
  }

  package var name: String
  package var step: Step
  package var needs: [String] = []
  /// Globs whose matched files' contents make the lane's input fingerprint.
  package var inputs: [String] = []
  /// Modules (folders, or globs over them) this lane tests.
  package var covers: [String] = []
  /// Seconds; nil means the run's default.
  package var timeout: Double?
  package var retries: Int = 0
  package var env: [EnvironmentEntry] = []
  /// The folder the lane runs in, relative to the tree root.
  package var dir: String?
  /// Programs that must be on `PATH` for the lane to run.
  package var requires: [String] = []
  /// `pool:`: lanes of one pool never run more at once than its depth.
  package var pool: String?
  /// `env-inputs:`: environment variables whose values belong in the fingerprint.
  package var envInputs: [String] = []
  /// `runs-on:`: the CI runner labels of the lane's job (the platform's default when empty).
  var runsOn: [String] = []
  /// `platforms:`: where the lane can run; nil means everywhere.
  package var platforms: [LanePlatform]?
  /// `outputs:`: files or folders (relative to the tree root) the lane writes and
  /// lanes that need it read; a generated CI workflow hands them from job to job.
  package var outputs: [String] = []
  /// `tags:`: words `duet verify --tag` selects the lane by; no part of its fingerprint.
  var tags: [String] = []
  /// `reports:`: globs (relative to the tree root) of the JUnit XML files the
  /// lane writes; after each attempt the ones written during it are read and
  /// their test cases recorded. No part of the fingerprint.
  package var reports: [String] = []
  /// `sandbox:`: run under `duet verify`'s sandbox (true) or never (false);
  /// nil follows the manifest's top-level `sandbox:`.
  package var sandbox: Bool?
  /// `network: true`: the lane reaches the network inside the sandbox too.
  package var network = false
  var location: SourceLocation

  package init(name: String, step: Step, location: SourceLocation) {
    self.name = name
    self.step = step
    self.location = location
  }

  /// The command as a person would type it: `design-tokens --check` or the shell text.
  package var commandText: String {
    switch step {
    case .builtin(let command, let arguments): return ([command] + arguments).joined(separator: " ")
    case .shell(let text): return text
    }
  }

  package var isBuiltin: Bool {
    if case .builtin = step { return true }
    return false
  }
}

/// One `NAME: value` of a lane's `env:`.
package struct EnvironmentEntry: Sendable, Equatable {
  package var name: String
  package var value: String
  package init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}
