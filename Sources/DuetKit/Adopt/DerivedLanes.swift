/// The lanes of a tree that has `parity/manifest.yaml` and no `lanes/manifest.yaml`:
/// the very lanes `duet init` would write, built from the same plan.
public enum DerivedLanes {
  /// The first line `duet lanes` and `duet verify` print for such a tree.
  public static let notice = "lanes derived from \(ParityManifest.defaultPath); run duet init to pin them"

  public static func lanes(_ plan: AdoptionPlan, file: String = ParityManifest.defaultPath) -> [Lane] {
    plan.lanes.map { planned in
      var lane = Lane(name: planned.name, step: planned.step, location: SourceLocation(file: file, line: 1, column: 1))
      lane.dir = planned.dir
      lane.needs = planned.needs
      lane.covers = planned.covers
      lane.requires = planned.requires
      lane.pool = planned.pool
      lane.platforms = planned.platforms
      return lane
    }
  }
}
