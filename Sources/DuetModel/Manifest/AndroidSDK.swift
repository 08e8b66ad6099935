import Foundation
import DuetSupport

/// The Android SDK as a lane's requirement. An Android module builds only with
/// the SDK, which Gradle finds through `sdk.dir` in the build's
/// `local.properties`, else `ANDROID_HOME` (older: `ANDROID_SDK_ROOT`). A lane
/// says it needs one with `requires: [android-sdk]`: a name that is not a
/// program, so the lane keeps `requires:`'s meaning (skipped where the SDK is
/// missing, failed under `--strict`) without a key of its own, as macOS lanes
/// are skipped on Linux. No program takes this name on `PATH`.
package enum AndroidSDK {
  /// The `requires:` entry that names the SDK rather than a program.
  package static let requirement = "android-sdk"

  /// Where an SDK was found, and what named it (`ANDROID_HOME`, `sdk.dir in src-kmp/local.properties`).
  package struct Location: Sendable, Equatable {
    package var path: String
    package var source: String
  }

  /// `sdk.dir` of `properties` (a `local.properties` relative to the root),
  /// else `ANDROID_HOME`, else `ANDROID_SDK_ROOT` of `environment` (the
  /// request's, never duet's own); nil when none names one.
  package static func locate(properties: String, root: URL, environment: [String: String]) -> Location? {
    if let data = (try? PathGuard.read(properties, in: root)) ?? nil {
      for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("sdk.dir"), let equals = trimmed.firstIndex(where: { $0 == "=" || $0 == ":" }) else { continue }
        // Java properties escape `:` and `\` (Windows paths): `C\:\\Android`.
        let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
          .replacingOccurrences(of: "\\:", with: ":").replacingOccurrences(of: "\\\\", with: "\\")
        if !value.isEmpty { return Location(path: value, source: "sdk.dir in \(properties)") }
      }
    }
    for name in ["ANDROID_HOME", "ANDROID_SDK_ROOT"] {
      if let value = environment[name], !value.isEmpty { return Location(path: value, source: name) }
    }
    return nil
  }

  /// The SDK a lane running in `laneDir` (relative to the root; nil for the
  /// root) gets: Gradle reads `local.properties` beside the settings file,
  /// which is the lane's folder for the lanes `duet init` writes.
  package static func locate(laneDir: String?, root: URL, environment: [String: String]) -> Location? {
    let folder = laneDir.map { $0 == "." ? "" : $0 } ?? ""
    return locate(properties: folder.isEmpty ? "local.properties" : folder + "/local.properties", root: root, environment: environment)
  }

  /// Why a lane in `laneDir` has no usable SDK (`needs the Android SDK:
  /// ANDROID_HOME is not set`), or nil when it has one: a folder, relative
  /// paths taken from the lane's folder as Gradle takes them from the build's.
  package static func missing(laneDir: String?, root: URL, environment: [String: String]) -> String? {
    guard let location = locate(laneDir: laneDir, root: root, environment: environment) else {
      return "needs the Android SDK: ANDROID_HOME is not set"
    }
    return isFolder(location.path, laneDir: laneDir, root: root)
      ? nil : "needs the Android SDK: \(location.source) names \(location.path), which is not a folder"
  }

  /// Whether `path` names a folder (links followed), relative paths from the lane's folder.
  package static func isFolder(_ path: String, laneDir: String?, root: URL) -> Bool {
    let base = laneDir.map { root.appendingPathComponent($0) } ?? root
    let absolute = path.hasPrefix("/") ? path : base.appendingPathComponent(path).path
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) && isDirectory.boolValue
  }
}
