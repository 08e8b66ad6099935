import Foundation
import DuetModel
import DuetSupport

/// `--check`: compares every file the config generates with the one on disk,
/// whole file against whole file, and writes nothing. A file the Duet
/// toolchain's engine wrote (`EngineBanner`) is compared by code instead, or
/// with the engine's layout of the same config (`EngineLayout`, given the
/// config), so a tree the engine generated passes as it is and so does one
/// duet wrote in the engine's layout.
enum TokenCheck {
  static func run(_ plan: TokenPlan, root: URL, configPath: String, config: TokenConfig? = nil) -> TokenReport {
    var report = TokenReport(mode: .check, configPath: configPath)
    for file in plan.files {
      let read: Data?
      do {
        read = try PathGuard.read(file.path, in: root)
      } catch {
        let reason: String
        if case .refused(_, let why) = error { reason = why } else { reason = "\(error)" }
        report.entries.append(.init(path: file.path, status: .refused, note: reason))
        continue
      }
      guard let data = read else {
        report.entries.append(.init(path: file.path, status: .missing))
        continue
      }
      if sameBytes(data, file.contents) {
        report.entries.append(.init(path: file.path, status: .upToDate))
      } else {
        let onDisk = String(decoding: data, as: UTF8.self)
        if EngineBanner.recognizes(onDisk) {
          if let difference = CodeComparison.firstDifference(onDisk, file.contents),
            !(config.map { EngineLayout.writes(onDisk, at: file.path, config: $0) } ?? false) {
            report.entries.append(.init(path: file.path, status: .stale, difference: difference, comparedByCode: true))
          } else {
            report.entries.append(.init(path: file.path, status: .upToDate, comparedByCode: true))
          }
        } else {
          report.entries.append(.init(path: file.path, status: .stale, difference: firstDifference(onDisk, file.contents)))
        }
      }
    }
    for path in plan.undeclaredFiles(in: root) {
      report.entries.append(.init(path: path, status: .orphaned))
    }
    return report
  }

  /// `data` holds exactly `text`'s UTF-8, compared in place rather than through a copy of the text.
  static func sameBytes(_ data: Data, _ text: String) -> Bool {
    guard data.count == text.utf8.count else { return false }
    let compared = text.utf8.withContiguousStorageIfAvailable { expected in
      data.withUnsafeBytes { onDisk in expected.isEmpty || memcmp(onDisk.baseAddress!, expected.baseAddress!, expected.count) == 0 }
    }
    return compared ?? (data == Data(text.utf8))
  }

  /// The first line at which `onDisk` and `generated` differ (a missing final
  /// newline shows as the line after the last one).
  static func firstDifference(_ onDisk: String, _ generated: String) -> TokenReport.Difference {
    let old = onDisk.split(separator: "\n", omittingEmptySubsequences: false)
    let new = generated.split(separator: "\n", omittingEmptySubsequences: false)
    var index = 0
    while index < old.count && index < new.count && old[index] == new[index] { index += 1 }
    return TokenReport.Difference(
      line: index + 1,
      onDisk: index < old.count ? String(old[index]) : nil,
      generated: index < new.count ? String(new[index]) : nil)
  }
}
