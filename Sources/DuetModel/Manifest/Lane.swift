import DuetSupport

/// One step of a verify run, as the manifest declares it.
public struct Lane: Sendable, Equatable {
  /// The most `retries` a lane may have: more is a loop, not a retry.
  public static let maxRetries = 10
  /// The longest `timeout` a lane (or `--timeout`) may set: 7 days.
  public static let maxTimeout: Double = 7 * 86400
  /// The longest lane name: its log file `<name>.attempt-N.log` must fit in a
  /// file name (255 bytes) on every file system.
  public static let maxNameLength = 200

  /// What a lane runs: a built-in duet command in-process, or a shell command.
  public enum Step: Sendable, Equatable {
    /// `run: design-tokens --check`: the command word and its arguments.
    case builtin(command: String, arguments: [String])
    /// `sh: ...`, run by `/bin/sh -c`.
    case shell(String)
  }

  public var name: String
  public var step: Step
  public var needs: [String] = []
  /// Globs whose matched files' contents make the lane's input fingerprint.
  public var inputs: [String] = []
  /// Modules (folders, or globs over them) this lane tests.
  public var covers: [String] = []
  /// Seconds; nil means the run's default.
  public var timeout: Double?
  public var retries: Int = 0
  public var env: [EnvironmentEntry] = []
  /// The folder the lane runs in, relative to the tree root.
  public var dir: String?
  /// Programs that must be on `PATH` for the lane to run.
  public var requires: [String] = []
  /// `pool:`: lanes of one pool never run more at once than its depth.
  public var pool: String?
  /// `env-inputs:`: environment variables whose values belong in the fingerprint.
  public var envInputs: [String] = []
  /// `runs-on:`: the CI runner labels of the lane's job (the platform's default when empty).
  public var runsOn: [String] = []
  /// `platforms:`: where the lane can run; nil means everywhere.
  public var platforms: [LanePlatform]?
  /// `outputs:`: files or folders (relative to the tree root) the lane writes and
  /// lanes that need it read; a generated CI workflow hands them from job to job.
  public var outputs: [String] = []
  /// `tags:`: words `duet verify --tag` selects the lane by; no part of its fingerprint.
  public var tags: [String] = []
  /// `reports:`: globs (relative to the tree root) of the JUnit XML files the
  /// lane writes; after each attempt the ones written during it are read and
  /// their test cases recorded. No part of the fingerprint.
  public var reports: [String] = []
  public var location: SourceLocation

  public init(name: String, step: Step, location: SourceLocation) {
    self.name = name
    self.step = step
    self.location = location
  }

  /// The command as a person would type it: `design-tokens --check` or the shell text.
  public var commandText: String {
    switch step {
    case .builtin(let command, let arguments): return ([command] + arguments).joined(separator: " ")
    case .shell(let text): return text
    }
  }

  public var isBuiltin: Bool {
    if case .builtin = step { return true }
    return false
  }
}

/// One `NAME: value` of a lane's `env:`.
public struct EnvironmentEntry: Sendable, Equatable {
  public var name: String
  public var value: String
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}
