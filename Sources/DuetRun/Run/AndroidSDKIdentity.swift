import DuetModel
import DuetSupport
import Foundation

/// What a lane's key holds of the Android SDK it builds with (`requires:
/// [android-sdk]`): the packages a Gradle build takes from it, each
/// `platforms;android-N` and `build-tools;V` with the versions its
/// `source.properties` gives, never where the SDK is. A second checkout with an
/// identical SDK elsewhere (on GitLab the SDK sits inside the checkout) keeps
/// the pass; another SDK at the same path does not.
extension AndroidSDK {
  /// The folders of an SDK whose packages are in the key.
  static let keyedFolders = ["platforms", "build-tools"]
  /// At most this many packages of one folder are read; past it the count stands for the rest.
  static let keyedPackageLimit = 256
  /// The largest `source.properties` read.
  static let propertiesLimit = 64 * 1024

  /// `sdk:<sha256>` over the SDK's packages and versions, or `missing` when the
  /// lane gets no SDK folder.
  static func identity(laneDir: String?, root: URL, environment: [String: String]) -> String {
    guard let location = locate(laneDir: laneDir, root: root, environment: environment),
          isFolder(location.path, laneDir: laneDir, root: root) else { return "missing" }
    let base = laneDir.map { root.appendingPathComponent($0) } ?? root
    let sdk = location.path.hasPrefix("/") ? URL(fileURLWithPath: location.path) : base.appendingPathComponent(location.path)
    return "sdk:" + Digest.sha256(packages(in: sdk).joined())
  }

  /// One line per package: `platforms;android-34 Pkg.Revision=3 AndroidVersion.ApiLevel=34`.
  static func packages(in sdk: URL) -> [String] {
    var lines: [String] = []
    for folder in keyedFolders {
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: sdk.appendingPathComponent(folder).path)) ?? [])
        .filter { !$0.hasPrefix(".") }.sorted()
      for name in names.prefix(keyedPackageLimit) {
        let file = sdk.appendingPathComponent("\(folder)/\(name)/source.properties").path
        lines.append("\(folder);\(name) \(versions(inPropertiesAt: file))\n")
      }
      if names.count > keyedPackageLimit { lines.append("\(folder) \(names.count) packages\n") }
    }
    return lines
  }

  /// The version lines of a package's `source.properties` (`Pkg.Revision`,
  /// `AndroidVersion.ApiLevel`, `AndroidVersion.CodeName`, `Platform.Version`),
  /// sorted; `unreadable` for a package without one, which is a package still.
  static func versions(inPropertiesAt path: String) -> String {
    guard let data = try? PathGuard.readRegularFile(atAbsolute: path, displayPath: path), data.count <= propertiesLimit else {
      return "unreadable"
    }
    let wanted = ["Pkg.Revision", "AndroidVersion.ApiLevel", "AndroidVersion.CodeName", "Platform.Version"]
    let found = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line -> String? in
      let pair = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard pair.count == 2, wanted.contains(pair[0]) else { return nil }
      return "\(pair[0])=\(pair[1])"
    }
    return found.isEmpty ? "no versions" : found.sorted().joined(separator: " ")
  }
}
