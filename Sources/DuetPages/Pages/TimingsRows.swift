import DuetSupport
import DuetHistory

/// Where the timings page draws each bar: a job slot is one row, and a bar
/// that its neighbour on the slot would cover (a lane of a few milliseconds,
/// drawn 4 px wide, that the next lane follows at once) or whose label would
/// not fit gets a row of its own under the slot. Bars of lanes that did not
/// pass (failed, timed out, retried, interrupted) are placed first and always
/// with their label, so they are never the ones hidden or left unnamed.
struct TimingsRows {
  /// A bar's place: the row it is drawn on (from 0, over all slots), and
  /// whether its label is drawn (inside where it fits, else after it).
  struct Place: Equatable {
    var row: Int
    var labelled: Bool
  }

  /// Per bar, in the timeline's order.
  var places: [Place]
  /// Per slot, its first row and how many rows it has.
  var slotRows: [(first: Int, count: Int)]
  var rowCount: Int

  /// The rows a slot may grow to for labels alone; a bar that would be covered gets a row past them too.
  static let labelRows = 3

  init(_ bars: [RunTimeline.Bar], slots: Int, scale: Double) {
    var rows: [[[(Double, Double)]]] = Array(repeating: [[]], count: max(slots, 1))
    var local: [(row: Int, labelled: Bool)] = Array(repeating: (0, false), count: bars.count)
    let failing = bars.indices.filter { bars[$0].outcome != "pass" }, passing = bars.indices.filter { bars[$0].outcome == "pass" }
    for index in failing.sorted(by: { bars[$0].start < bars[$1].start }) + passing.sorted(by: { bars[$0].start < bars[$1].start }) {
      let bar = bars[index]
      let (rect, labelled) = TimingsRows.extents(bar, scale: scale)
      var slotRows = rows[bar.slot]
      let mustLabel = bar.outcome != "pass"
      if let row = slotRows.indices.first(where: { ($0 < TimingsRows.labelRows || mustLabel) && TimingsRows.fits(labelled, in: slotRows[$0]) }) {
        slotRows[row].append(labelled)
        local[index] = (row, true)
      } else if !mustLabel, let row = slotRows.indices.first(where: { TimingsRows.fits(rect, in: slotRows[$0]) }) {
        slotRows[row].append(rect)
        local[index] = (row, false)
      } else {
        slotRows.append([labelled])
        local[index] = (slotRows.count - 1, true)
      }
      rows[bar.slot] = slotRows
    }
    var first = 0
    slotRows = []
    for slot in rows.indices {
      slotRows.append((first, rows[slot].count))
      first += rows[slot].count
    }
    rowCount = first
    let firsts = slotRows.map(\.first)
    places = bars.indices.map { Place(row: firsts[bars[$0].slot] + local[$0].row, labelled: local[$0].labelled) }
  }

  /// A bar's drawn rectangle (pixels from the chart's left), and the same with its label (and two pixels of air) when it is drawn after the bar.
  static func extents(_ bar: RunTimeline.Bar, scale: Double) -> (rect: (Double, Double), labelled: (Double, Double)) {
    let left = bar.start * scale
    let width = max(TimingsPage.minimumBarWidth, bar.duration * scale)
    let label = Double(bar.lane.count) * TimingsPage.characterWidth + 6
    let right = width >= label ? left + width : left + width + 3 + label + 2
    return ((left, left + width), (left, right))
  }

  static func fits(_ extent: (Double, Double), in row: [(Double, Double)]) -> Bool {
    !row.contains { $0.0 < extent.1 && extent.0 < $0.1 }
  }
}
