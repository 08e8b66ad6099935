import DuetSupport

/// An action the generated GitHub workflow uses, pinned to the full commit of
/// its release tag as read from the action's public repository (`git rev-parse
/// TAG^{commit}`), with the tag as a comment: a tag can be moved, a commit cannot.
struct PinnedAction: Sendable, Equatable {
  var name: String
  var commit: String
  var version: String

  /// `owner/name@COMMIT # vX.Y.Z`, the value of a `uses:` key and its comment.
  var uses: YAML { "\(name + "@" + commit) # \(version, in: .comment)" }

  static let checkout = PinnedAction(name: "actions/checkout", commit: "3d3c42e5aac5ba805825da76410c181273ba90b1", version: "v7.0.1")
  static let cache = PinnedAction(name: "actions/cache", commit: "27d5ce7f107fe9357f9df03efb73ab90386fccae", version: "v5.0.5")
  static let cacheRestore = PinnedAction(name: "actions/cache/restore", commit: cache.commit, version: cache.version)
  static let cacheSave = PinnedAction(name: "actions/cache/save", commit: cache.commit, version: cache.version)
  static let uploadArtifact = PinnedAction(name: "actions/upload-artifact", commit: "bbbca2ddaa5d8feaa63e36b76fdaad77386f024f", version: "v7.0.0")
  static let downloadArtifact = PinnedAction(name: "actions/download-artifact", commit: "3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c", version: "v8.0.1")
  static let setupJava = PinnedAction(name: "actions/setup-java", commit: "b6effb05e454b25005698d916606bdc6ffcbf961", version: "v5.7.0")
  /// Installs the Android SDK's command-line tools and sets `ANDROID_HOME`, for lanes with `requires: [android-sdk]`.
  static let setupAndroid = PinnedAction(name: "android-actions/setup-android", commit: "9fc6c4e9069bf8d3d10b2204b1fb8f6ef7065407", version: "v3.2.2")

  /// Every action a generated workflow may use.
  static let all = [checkout, cache, cacheRestore, cacheSave, uploadArtifact, downloadArtifact, setupJava, setupAndroid]
}
