import DuetModel
import DuetSupport
import Foundation

/// What the watch counts as a change (issue 52, item 9): what differs from the
/// tree the last run saw, less what the lanes write themselves. A file the
/// events name that is neither there now nor was there when the run started
/// (`sed -i`'s temporary `sedXXXXXX`, made and renamed away) never existed for
/// a run; the lanes' declared `outputs:` and `reports:` and the `build/`
/// folders of Gradle projects (with Gradle's and Kotlin's `.gradle`/`.kotlin`
/// caches) are what runs write, never a change to act on. duet's own files
/// (`.duet/`, its output, the timings page) the watcher leaves out already.
struct WatchedChanges {
  let root: URL
  /// The tree as the last run saw it, taken as it started; nil from a source
  /// that keeps no view of the tree (then only the lanes' own files are left out).
  var saw: TreeScan?

  /// `files` less those that are no change.
  func changes(_ files: [String]) -> [String] {
    guard !files.isEmpty else { return [] }
    let lanes = (try? TreeManifest.load(root: root))?.manifest.lanes ?? []
    let outputs = lanes.flatMap(\.outputs).map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty }
    let reports = lanes.flatMap(\.reports).map(Glob.init)
    var gradleFolders: [String: Bool] = [:]
    return files.filter { path in
      if let saw, !saw.differs(path, root: root.path) { return false }
      if outputs.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { return false }
      if reports.contains(where: { $0.matches(path, hidden: .ordinary) }) { return false }
      return !isBuildOutput(path, gradleFolders: &gradleFolders)
    }
  }

  /// Names of folders that hold only what a build wrote, wherever they are.
  static let cacheFolders: Set<String> = [".gradle", ".kotlin"]
  /// The files that make a folder a Gradle project, whose `build/` Gradle writes.
  static let gradleFiles = ["build.gradle.kts", "build.gradle", "settings.gradle.kts", "settings.gradle"]

  /// Whether `path` lies in a `.gradle`/`.kotlin` folder, or in the `build/`
  /// folder of a Gradle project (`gradleFolders` remembers each folder asked).
  private func isBuildOutput(_ path: String, gradleFolders: inout [String: Bool]) -> Bool {
    let parts = path.split(separator: "/").map(String.init)
    for (index, part) in parts.dropLast().enumerated() {
      if Self.cacheFolders.contains(part) { return true }
      guard part == "build" else { continue }
      let folder = parts[..<index].joined(separator: "/")
      if let known = gradleFolders[folder] {
        if known { return true }
        continue
      }
      let base = folder.isEmpty ? root : root.appendingPathComponent(folder)
      let isGradle = Self.gradleFiles.contains { FileManager.default.fileExists(atPath: base.appendingPathComponent($0).path) }
      gradleFolders[folder] = isGradle
      if isGradle { return true }
    }
    return false
  }
}
