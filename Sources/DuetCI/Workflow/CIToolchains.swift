import Foundation
import DuetAdopt
import DuetModel
import DuetSupport

/// What a tree's lanes need on every CI runner besides duet, as `duet doctor`
/// finds it: the JDK its Gradle modules ask for (`jvmToolchain(N)`, the
/// newest when they differ) and whether it builds with Gradle at all (then the
/// Gradle and Kotlin/Native caches are worth keeping between runs).
package struct CIToolchains: Sendable, Equatable {
  /// The JDK major version to install, nil when no module declares one.
  var jdk: Int?
  /// Whether the tree has a Gradle settings file.
  var gradle = false
  init(jdk: Int? = nil, gradle: Bool = false) {
    self.jdk = jdk
    self.gradle = gradle
  }

  /// The toolchains of the tree at `root`.
  package static func of(root: URL) -> CIToolchains {
    let requested = JVMToolchainRequests.of(root: root)
    return CIToolchains(jdk: requested.byVersion.keys.max(), gradle: !ModuleDiscovery.buildFiles(root: root).settings.isEmpty)
  }

  /// Whether a job holding `lanes` must set up the Android SDK: one of them
  /// says it needs it (`requires: [android-sdk]`), and duet would skip it
  /// without one (and `--strict`, as CI runs it, fails it).
  static func needAndroidSDK(_ lanes: [Lane]) -> Bool {
    lanes.contains { $0.requires.contains(AndroidSDK.requirement) }
  }

  /// The Android command-line tools a GitLab job installs (the build
  /// `android-actions/setup-android` v3.2.2 installs by default, so both CI
  /// systems build with the same `sdkmanager`), and where the SDK goes.
  static let androidCommandLineTools = "12266719"
  static let gitLabAndroidHome = ".android-sdk"

  /// The GitLab script line that gives a job the Android SDK: the image's own
  /// when it sets `ANDROID_HOME`, else the command-line tools unpacked into the
  /// cached `.android-sdk/`, the licences accepted (Gradle then installs the
  /// platforms a module compiles against). Needs the JDK, installed before it.
  static let installAndroidSDK: ShellText =
    "if [ -z \"${ANDROID_HOME:-}\" ]; then export ANDROID_HOME=\"$CI_PROJECT_DIR/\(gitLabAndroidHome)\"; fi; export ANDROID_SDK_ROOT=\"$ANDROID_HOME\"; "
    + "sdkmanager=\"$ANDROID_HOME/cmdline-tools/latest/bin/sdkmanager\"; "
    + "if [ ! -x \"$sdkmanager\" ]; then "
    + "if command -v apt-get >/dev/null; then apt-get update -q && apt-get install -y -q curl unzip; fi; "
    + "case \"$(uname -s)\" in Darwin) os=mac;; *) os=linux;; esac; "
    + "curl -fsSL --retry 3 -o \"$CI_PROJECT_DIR/android-cmdline-tools.zip\" \"https://dl.google.com/android/repository/commandlinetools-$os-\(androidCommandLineTools)_latest.zip\" "
    + "&& mkdir -p \"$ANDROID_HOME/cmdline-tools\" && rm -rf \"$ANDROID_HOME/cmdline-tools/latest\" \"$ANDROID_HOME/cmdline-tools/cmdline-tools\" "
    + "&& unzip -q \"$CI_PROJECT_DIR/android-cmdline-tools.zip\" -d \"$ANDROID_HOME/cmdline-tools\" "
    + "&& mv \"$ANDROID_HOME/cmdline-tools/cmdline-tools\" \"$ANDROID_HOME/cmdline-tools/latest\" && rm -f \"$CI_PROJECT_DIR/android-cmdline-tools.zip\"; fi; "
    + "{ yes || true; } | \"$sdkmanager\" --licenses >/dev/null"

  /// The JDK distribution `actions/setup-java` installs.
  static let jdkDistribution = "temurin"
  /// The jobs that build duet once per runner platform; no lane job takes their ids.
  static let buildJobIDs: Set<String> = ["duet-build-linux", "duet-build-macos"]

  static func buildJobID(macOS: Bool) -> String { macOS ? "duet-build-macos" : "duet-build-linux" }

  /// `xcode-select` of the newest installed Xcode whose version starts with
  /// `$DUET_XCODE` (the runner's default when it is empty; none installed fails),
  /// then `xcodebuild -version`.
  static let selectXcode: ShellText =
    "xcode=\"$(ls -d /Applications/Xcode_\"${DUET_XCODE:-}\"*.app 2>/dev/null | sort -V | tail -n 1 || true)\"; "
    + "if [ -n \"$xcode\" ]; then sudo xcode-select --switch \"$xcode\"; "
    + "elif [ -n \"${DUET_XCODE:-}\" ]; then echo \"no Xcode $DUET_XCODE in /Applications\" >&2; exit 1; fi; xcodebuild -version"
}
