import Foundation
import DuetAdopt
import DuetModel

/// What a tree's lanes need on every CI runner besides duet, as `duet doctor`
/// finds it: the JDK its Gradle modules ask for (`jvmToolchain(N)`, the
/// newest when they differ) and whether it builds with Gradle at all (then the
/// Gradle and Kotlin/Native caches are worth keeping between runs).
public struct CIToolchains: Sendable, Equatable {
  /// The JDK major version to install, nil when no module declares one.
  public var jdk: Int?
  /// Whether the tree has a Gradle settings file.
  public var gradle = false
  public init(jdk: Int? = nil, gradle: Bool = false) {
    self.jdk = jdk
    self.gradle = gradle
  }

  /// The toolchains of the tree at `root`.
  public static func of(root: URL) -> CIToolchains {
    let requested = JVMToolchainRequests.of(root: root)
    return CIToolchains(jdk: requested.byVersion.keys.max(), gradle: !ModuleDiscovery.buildFiles(root: root).settings.isEmpty)
  }

  /// The JDK distribution `actions/setup-java` installs.
  public static let jdkDistribution = "temurin"
  /// The jobs that build duet once per runner platform; no lane job takes their ids.
  public static let buildJobIDs: Set<String> = ["duet-build-linux", "duet-build-macos"]

  public static func buildJobID(macOS: Bool) -> String { macOS ? "duet-build-macos" : "duet-build-linux" }

  /// `xcode-select` of the newest installed Xcode whose version starts with
  /// `$DUET_XCODE` (the runner's default when it is empty; none installed fails),
  /// then `xcodebuild -version`.
  public static let selectXcode =
    "xcode=\"$(ls -d /Applications/Xcode_\"${DUET_XCODE:-}\"*.app 2>/dev/null | sort -V | tail -n 1 || true)\"; "
    + "if [ -n \"$xcode\" ]; then sudo xcode-select --switch \"$xcode\"; "
    + "elif [ -n \"${DUET_XCODE:-}\" ]; then echo \"no Xcode $DUET_XCODE in /Applications\" >&2; exit 1; fi; xcodebuild -version"
}
