import Foundation
import DuetAdopt
import DuetModel
import DuetSupport

/// An Android application or library module builds only with the Android SDK,
/// which Gradle finds through `sdk.dir` in the build's `local.properties` or
/// the `ANDROID_HOME` (older: `ANDROID_SDK_ROOT`) variable. A clean checkout on
/// a new machine has neither, and the Kotlin lane would go red only when it runs.
enum AndroidSDKCheck {
  /// One `android sdk` line per Gradle build with Android modules, and a
  /// problem when a lane that runs here covers one and no SDK is found.
  static func check(root: URL, manifest: Manifest, platform: LanePlatform, environment: [String: String], into report: inout DoctorReport) {
    let settings = ModuleDiscovery.buildFiles(root: root).settings
    for file in settings {
      let android = GradleModule.modules(settingsFile: file, root: root).filter { $0.androidPlugin != nil }
      guard !android.isEmpty else { continue }
      let folder = (file as NSString).deletingLastPathComponent
      let properties = folder.isEmpty ? "local.properties" : folder + "/local.properties"
      let projects = android.map(\.project).joined(separator: ", ")
      if let sdk = sdkFolder(properties: properties, root: root, environment: environment) {
        let usable = FileManager.default.fileExists(atPath: sdk.path)
        let shown = Doctor.shownPath(sdk.path, root: root)
        report.add("android sdk", "\(shown) (from \(sdk.source)) for \(projects)\(usable ? "" : ": no such folder")")
        if !usable && covered(android, by: manifest, platform: platform) {
          report.problem("the Android SDK \(sdk.source) names, \(shown), does not exist; Android module(s) \(projects) need it")
        }
        continue
      }
      report.add("android sdk", "not found for \(projects): no sdk.dir in \(properties), no ANDROID_HOME")
      if covered(android, by: manifest, platform: platform) {
        report.problem("Android module(s) \(projects) need the Android SDK: set ANDROID_HOME, or sdk.dir in \(properties)")
      }
    }
  }

  /// `sdk.dir` of the build's `local.properties`, else `ANDROID_HOME`, else `ANDROID_SDK_ROOT`.
  static func sdkFolder(properties: String, root: URL, environment: [String: String]) -> (path: String, source: String)? {
    AndroidSDK.locate(properties: properties, root: root, environment: environment).map { ($0.path, $0.source) }
  }

  /// Whether a lane that runs on this platform covers one of the modules and
  /// does not say it needs the SDK (`requires: [android-sdk]`): those are
  /// checked lane by lane, as verify checks them (`Doctor.checkLanes`).
  static func covered(_ modules: [GradleModule], by manifest: Manifest, platform: LanePlatform) -> Bool {
    let lanes = manifest.lanes.filter { ($0.platforms?.contains(platform) ?? true) && !$0.requires.contains(AndroidSDK.requirement) }
    return modules.contains { module in
      lanes.contains { lane in lane.covers.contains { ModuleDiscovery.covered(module.path, by: Glob($0)) } }
    }
  }
}
