import Foundation
import DuetSupport

extension Data {
  /// Appends `lines` as UTF-8, each ended by a newline: how a workflow or a
  /// pipeline is written, one job at a time, never held as lines or as text too.
  mutating func appendLines(_ lines: [YAML]) {
    for line in lines {
      append(contentsOf: line.text.utf8)
      append(0x0A)
    }
  }
}
