import DuetSupport

/// Two lanes that may run at once must not read one report: each lane reads
/// the files its `reports:` match that were written while it ran, so with
/// globs that can match one file each records the other's test cases, and a
/// failure shows under a lane that passed.
extension ManifestLoader {
  /// Refuses every pair of lanes that may run at once (neither needs the
  /// other, directly or through others, and they share no pool of depth 1)
  /// whose `reports:` globs can match one file, naming both globs' places.
  static func overlappingReports(_ lanes: [Lane], reports: [[Located<String>]], pools: [String: Int], diagnostics: inout DiagnosticList) {
    var order = ReportPrefixes()
    for (lane, globs) in reports.enumerated() {
      for (position, glob) in globs.enumerated() { order.add(ReportGlob(lane: lane, position: position, glob: Glob(glob.value))) }
    }
    var needs = NeedsClosure(lanes)
    var reported = Set<[Int]>()
    for (lane, globs) in reports.enumerated() {
      for glob in globs {
        let mine = Glob(glob.value)
        for other in order.candidates(for: mine) where other.lane < lane && !reported.contains([other.lane, lane]) {
          guard other.glob.sharesAFile(with: mine), !neverAtOnce(lanes[other.lane], lanes[lane], pools: pools),
                !needs.related(other.lane, lane) else { continue }
          reported.insert([other.lane, lane])
          let earlier = reports[other.lane][other.position]
          diagnostics.add("lane '\(lanes[lane].name)': its reports \"\(glob.value)\" and the reports \"\(earlier.value)\" of lane "
                          + "'\(lanes[other.lane].name)' (\(earlier.location)) can match one file, and the two lanes may run at once "
                          + "(neither needs the other), so each would record the other's test cases; narrow a glob, make one lane "
                          + "need the other, or put both in a pool of depth 1", at: glob.location)
        }
      }
    }
  }

  /// Lanes of one pool of depth 1 take turns, whatever needs they have.
  static func neverAtOnce(_ a: Lane, _ b: Lane, pools: [String: Int]) -> Bool {
    guard let pool = a.pool, pool == b.pool else { return false }
    return pools[pool] == 1
  }
}

/// One glob of one lane's `reports:`.
struct ReportGlob {
  var lane: Int
  var position: Int
  var glob: Glob
}

/// The reports globs by their literal leading segments: two globs can match
/// one file only when one's literal start is the other's or inside it, so a
/// tree of many lanes compares each glob with few others, not with all.
struct ReportPrefixes {
  /// The globs whose literal start is exactly this (segments joined by `/`).
  private var exact: [String: [ReportGlob]] = [:]
  /// The globs whose literal start lies strictly inside this.
  private var under: [String: [ReportGlob]] = [:]

  static func prefix(_ glob: Glob) -> [String] {
    Array(glob.segments.prefix { $0 != "**" && !$0.contains(where: { "*?".contains($0) }) })
  }

  mutating func add(_ item: ReportGlob) {
    let parts = ReportPrefixes.prefix(item.glob)
    exact[parts.joined(separator: "/"), default: []].append(item)
    for count in 0..<parts.count { under[parts.prefix(count).joined(separator: "/"), default: []].append(item) }
  }

  /// Every glob that may share a file with `glob`, in the order they were added.
  func candidates(for glob: Glob) -> [ReportGlob] {
    let parts = ReportPrefixes.prefix(glob)
    var found = under[parts.joined(separator: "/")] ?? []
    for count in 0...parts.count { found += exact[parts.prefix(count).joined(separator: "/")] ?? [] }
    return found.sorted { ($0.lane, $0.position) < ($1.lane, $1.position) }
  }
}

/// Which lanes each lane needs, directly or through others, worked out once
/// per lane asked about (a cycle is reported elsewhere and ends the walk here).
struct NeedsClosure {
  private let needs: [[Int]]
  private var closure: [Int: Set<Int>] = [:]

  init(_ lanes: [Lane]) {
    var index: [String: Int] = [:]
    for (position, lane) in lanes.enumerated() where index[lane.name] == nil { index[lane.name] = position }
    needs = lanes.map { $0.needs.compactMap { index[$0] } }
  }

  /// Whether one of the two lanes needs the other.
  mutating func related(_ a: Int, _ b: Int) -> Bool {
    all(a).contains(b) || all(b).contains(a)
  }

  mutating func all(_ lane: Int) -> Set<Int> {
    if let known = closure[lane] { return known }
    var seen = Set<Int>(), stack = needs[lane]
    while let next = stack.popLast() {
      guard seen.insert(next).inserted else { continue }
      stack += needs[next]
    }
    closure[lane] = seen
    return seen
  }
}
