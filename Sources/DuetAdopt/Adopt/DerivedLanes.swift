import Foundation
import DuetModel
import DuetSupport

/// The lanes of a tree that has `parity/manifest.yaml` and no `lanes/manifest.yaml`:
/// the very lanes `duet init` would write, built from the same plan.
package enum DerivedLanes {
  /// The first line `duet lanes` and `duet verify` print for such a tree
  /// (`manifestPath`: `parity/manifest.yaml`, or `parity/` for a tree with only
  /// a `parity/` folder), a printed line.
  package static func notice(_ manifestPath: String) -> TerminalLine {
    "lanes derived from \(manifestPath); run duet init to pin them"
  }

  /// What `duet init` writes beyond the derived lanes: on a tree whose token
  /// config has no theme test, a starting one (`ThemeTestScaffold`) and so a
  /// `theme-test` lane the derived set lacks. Nil when init adds nothing.
  package static func initAdds(root: URL) -> String? {
    guard case .success(let scaffold)? = ThemeTestScaffold.make(root: root) else { return nil }
    return "duet init would also write \(scaffold.path), a starting theme test, and a theme-test lane that runs it"
  }

  /// The lanes and pools a tree with only `parity/manifest.yaml` runs: what
  /// `TreeManifest.load` is handed, so the model layer needs no survey.
  package static let derive: TreeManifest.LaneDeriver = { root, parity in
    let plan = AdoptionPlan(TreeSurvey.survey(root: root, parity: parity))
    return (lanes(plan), plan.pools)
  }

  package static func lanes(_ plan: AdoptionPlan, file: String = ParityManifest.defaultPath) -> [Lane] {
    plan.lanes.map { planned in
      var lane = Lane(name: planned.name, step: planned.step, location: SourceLocation(file: file, line: 1, column: 1))
      lane.dir = planned.dir
      lane.env = planned.env
      lane.outputs = planned.outputs
      lane.reports = planned.reports
      lane.needs = planned.needs
      lane.covers = planned.covers
      lane.requires = planned.requires
      lane.inputs = planned.inputs
      lane.pool = planned.pool
      lane.platforms = planned.platforms
      return lane
    }
  }
}
