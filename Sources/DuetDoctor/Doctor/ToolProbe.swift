import Foundation
import DuetProcess
import DuetSupport

/// Finds a program on `PATH` and asks it for its version with a deadline, so a
/// hung toolchain makes `duet doctor` slow by seconds, never forever.
enum ToolProbe {
  struct Version: Sendable, Equatable {
    var tool: String
    /// Where it was found, or nil when it is not on `PATH`.
    var path: String?
    /// The line that names its version, or what went wrong asking for it.
    var text: String
    var ok: Bool
  }

  /// The toolchains duet reports and the argument each prints its version for.
  static let toolchains: [(tool: String, argument: String)] = [("swift", "--version"), ("java", "-version"), ("kotlinc", "-version")]

  /// The executable `name` resolves to through `PATH`, or nil.
  static func which(_ name: String, path: String?) -> String? {
    for folder in (path ?? "").split(separator: ":", omittingEmptySubsequences: true) {
      let candidate = folder + "/" + name
      if ExecutableFile.exists(at: candidate) { return candidate }
    }
    return nil
  }

  /// Runs `tool argument` (found through `PATH`) with a deadline and keeps the line
  /// that names its version.
  static func version(of tool: String, argument: String, environment: [String: String], timeout: Double) -> Version {
    guard let path = which(tool, path: environment[.path]) else {
      return Version(tool: tool, path: nil, text: "not found on PATH", ok: false)
    }
    let result = ChildRun.capture(path: path, arguments: [path, argument], directory: "/", environment: environment,
                                  limits: .init(timeout: timeout, killGrace: 1, drainGrace: 5), keep: 16 * 1024)
    if let problem = result.end.spawnError {
      return Version(tool: tool, path: path, text: "cannot run it: \(problem)", ok: false)
    }
    if result.end.timedOut {
      return Version(tool: tool, path: path, text: "'\(tool) \(argument)' did not answer within \(DurationText.format(timeout)); killed", ok: false)
    }
    let lines = String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    let line = lines.first { $0.localizedCaseInsensitiveContains("version") || $0.contains(tool) } ?? lines.first ?? ""
    var text = line.hasPrefix("info: ") ? String(line.dropFirst(6)) : line
    if text.count > 120 { text = String(text.prefix(119)) + "…" }
    guard result.end.exitCode == 0 else {
      let how = result.end.exitCode.map { "exited \($0)" } ?? "was killed"
      return Version(tool: tool, path: path, text: "'\(tool) \(argument)' \(how)\(text.isEmpty ? "" : ": " + text)", ok: false)
    }
    return Version(tool: tool, path: path, text: text.isEmpty ? "(printed no version)" : text, ok: true)
  }
}
