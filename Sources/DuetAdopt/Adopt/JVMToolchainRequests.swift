import Foundation
import DuetModel
import DuetSupport

/// The JDKs a tree's Gradle modules ask for (`jvmToolchain(N)`), read from
/// their build files: `duet doctor` compares them with the `java` on `PATH`,
/// and `duet workflow` installs the newest on every runner.
package enum JVMToolchainRequests {
  /// The Gradle projects of each `jvmToolchain(N)` the tree's modules declare,
  /// and the settings file that configures a toolchain resolver, if any.
  package static func of(root: URL) -> (byVersion: [Int: [String]], resolver: String?) {
    var byVersion: [Int: [String]] = [:]
    var resolver: String?
    for file in ModuleDiscovery.buildFiles(root: root).settings {
      for module in GradleModule.modules(settingsFile: file, root: root) {
        if let version = module.jvmToolchain { byVersion[version, default: []].append(module.project) }
      }
      if resolver == nil, let data = (try? PathGuard.read(file, in: root)) ?? nil, let text = String(data: data, encoding: .utf8),
        text.contains("foojay-resolver")
      {
        resolver = file
      }
    }
    return (byVersion, resolver)
  }
}
