import Foundation
import DuetAdopt
import DuetModel
import DuetSupport

/// Compares the JDK a Gradle module asks for (`jvmToolchain(25)` in its build
/// file) with the `java` on `PATH`: Gradle fails such a build unless it finds
/// that JDK installed or a toolchain resolver (the foojay plugin, named in a
/// settings file) may download it, and a clean checkout should not find out
/// only when the Kotlin lane goes red.
enum JVMToolchainCheck {
  /// The major version in `java -version`'s line: `openjdk version "17.0.15"` → 17,
  /// `"1.8.0_392"` → 8, `"25-ea"` → 25.
  static func major(_ versionLine: String) -> Int? {
    let parts = versionLine.split(separator: "\"", omittingEmptySubsequences: false)
    guard parts.count >= 3 else { return nil }
    let numbers = parts[1].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    guard let first = numbers.first else { return nil }
    return first == 1 && numbers.count > 1 ? numbers[1] : first
  }

  /// One `jdk` line per toolchain version the modules declare, and a
  /// problem when the JDK on `PATH` is another, no resolver is configured, and
  /// a lane that runs here covers one of those modules: a module no lane
  /// builds (an example tree beside the app, issue 41) cannot fail a lane.
  static func check(root: URL, manifest: Manifest?, platform: LanePlatform, java: ToolProbe.Version?, into report: inout DoctorReport) {
    let (byVersion, resolver) = requests(root: root)
    guard !byVersion.isEmpty else { return }
    let found = java.flatMap { $0.path == nil || !$0.ok ? nil : major($0.text) }
    let lanes = manifest?.lanes.filter { $0.platforms?.contains(platform) ?? true } ?? []
    for version in byVersion.keys.sorted() {
      let modules = byVersion[version]!
      let built = modules.filter { module in lanes.contains { lane in lane.covers.contains { ModuleDiscovery.covered(module.path, by: Glob($0)) } } }
      var line = "jvmToolchain(\(version)) in \(modules.count) Gradle module(s): \(listed(modules.map(\.project))); java on PATH is "
      line += found.map { "JDK \($0)" } ?? "not known"
      if let found, found != version {
        if let resolver {
          line += " (\(resolver) configures a toolchain resolver, so Gradle may download JDK \(version))"
        } else if built.isEmpty {
          line += " (no lane here covers them, so no lane needs JDK \(version))"
        } else {
          let shown = listed(built.map(\.project))
          report.problem("Gradle module(s) \(shown) declare jvmToolchain(\(version)), and the java on PATH is JDK \(found): install JDK \(version) (Gradle finds installed JDKs) or configure a toolchain resolver in the settings file")
        }
      }
      report.add("jdk", line)
    }
  }

  /// The modules of each `jvmToolchain(N)`, and the settings file that configures a resolver.
  static func requests(root: URL) -> (byVersion: [Int: [GradleModule]], resolver: String?) {
    var byVersion: [Int: [GradleModule]] = [:]
    for file in ModuleDiscovery.buildFiles(root: root).settings {
      for module in GradleModule.modules(settingsFile: file, root: root) {
        if let version = module.jvmToolchain { byVersion[version, default: []].append(module) }
      }
    }
    return (byVersion, JVMToolchainRequests.of(root: root).resolver)
  }

  /// At most four names, then how many more.
  static func listed(_ names: [String]) -> String {
    names.count > 4 ? names.prefix(4).joined(separator: ", ") + " and \(names.count - 4) more" : names.joined(separator: ", ")
  }
}
