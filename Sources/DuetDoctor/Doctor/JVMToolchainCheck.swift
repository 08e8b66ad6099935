import Foundation
import DuetAdopt

/// Compares the JDK a Gradle module asks for (`jvmToolchain(25)` in its build
/// file) with the `java` on `PATH`: Gradle fails such a build unless it finds
/// that JDK installed or a toolchain resolver (the foojay plugin, named in a
/// settings file) may download it, and a clean checkout should not find out
/// only when the Kotlin lane goes red.
package enum JVMToolchainCheck {
  /// The major version in `java -version`'s line: `openjdk version "17.0.15"` → 17,
  /// `"1.8.0_392"` → 8, `"25-ea"` → 25.
  package static func major(_ versionLine: String) -> Int? {
    let parts = versionLine.split(separator: "\"", omittingEmptySubsequences: false)
    guard parts.count >= 3 else { return nil }
    let numbers = parts[1].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard let first = numbers.first else { return nil }
    return first == 1 && numbers.count > 1 ? numbers[1] : first
  }

  /// One `jdk` line when any module declares a toolchain, and a problem when
  /// the JDK on `PATH` is another and no resolver is configured.
  package static func check(root: URL, java: ToolProbe.Version?, into report: inout DoctorReport) {
    let (byVersion, resolver) = JVMToolchainRequests.of(root: root)
    guard !byVersion.isEmpty else { return }
    let found = java.flatMap { $0.path == nil || !$0.ok ? nil : major($0.text) }
    for version in byVersion.keys.sorted() {
      let modules = byVersion[version]!
      let shown = modules.count > 4 ? modules.prefix(4).joined(separator: ", ") + " and \(modules.count - 4) more" : modules.joined(separator: ", ")
      var line = "jvmToolchain(\(version)) in \(modules.count) Gradle module(s): \(shown); java on PATH is "
      line += found.map { "JDK \($0)" } ?? "not known"
      if let found, found != version {
        if let resolver {
          line += " (\(resolver) configures a toolchain resolver, so Gradle may download JDK \(version))"
        } else {
          report.problem("Gradle module(s) \(shown) declare jvmToolchain(\(version)), and the java on PATH is JDK \(found): install JDK \(version) (Gradle finds installed JDKs) or configure a toolchain resolver in the settings file")
        }
      }
      report.add("jdk", line)
    }
  }
}
