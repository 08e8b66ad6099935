import DuetSupport

/// `platforms:` on a lane: the operating systems it can run on. A lane that
/// builds a Kotlin/Native Apple framework or links an XCFramework can only
/// run on macOS; elsewhere `duet verify` reports it `skipped (macOS only)`,
/// which fails no run, `--strict` included: there is nothing to fix on Linux.
package enum LanePlatform: String, Sendable, Equatable, CaseIterable {
  case macos
  case linux

  /// The platform this duet was built for.
  package static var current: LanePlatform {
    #if os(macOS)
      return .macos
    #else
      return .linux
    #endif
  }

  /// How a skip names the platforms: `macOS only`, `Linux only`, `macOS or Linux`.
  static func spoken(_ platforms: [LanePlatform]) -> String {
    let names = platforms.map { $0 == .macos ? "macOS" : "Linux" }
    return names.count == 1 ? "\(names[0]) only" : names.joined(separator: " or ")
  }
}

extension Lane {
  /// Nil when the lane runs here (no `platforms:`, or it names this one);
  /// otherwise the reason it is skipped: `macOS only`.
  package func platformSkipReason(on platform: LanePlatform = .current) -> String? {
    guard let platforms, !platforms.contains(platform) else { return nil }
    return LanePlatform.spoken(platforms)
  }
}

extension Manifest {
  /// The CI runner labels (GitHub) or tags (GitLab) of a lane's job: its own
  /// `runs-on:`, else its platform's from the manifest's `runs-on:` (a lane that
  /// runs only on macOS goes to macOS, every other lane to Linux), else the CI
  /// system's default for that platform.
  package func runnerLabels(for lane: Lane, macOSDefault: [String], linuxDefault: [String]) -> [String] {
    if !lane.runsOn.isEmpty { return lane.runsOn }
    if lane.platforms == [.macos] { return runsOn[.macos] ?? macOSDefault }
    return runsOn[.linux] ?? linuxDefault
  }
}
