import Foundation
import DuetTokens
import DuetModel
import DuetSupport

/// Renders an adoption plan as a commented `lanes/manifest.yaml`: each lane with
/// the reason it exists above it, so a reader of the file knows what to keep.
/// Returns text; `duet init` writes it.
package enum ManifestWriter {
  package static func render(_ plan: AdoptionPlan) -> String {
    var text = """
      # The lanes of this tree, written by `duet init` from what it found here.
      # `duet lanes` lists them in run order; `duet verify` runs them as a DAG.
      # Edit freely: `duet init` replaces this file only when given --force.
      # Each lane's `covers:` names the modules it tests, so `duet lanes` lists
      # no module outside the manifest; a new module needs a lane (or a rerun
      # of `duet init --force`).
      version: 1

      """
    text += "\n" + keptSections(plan.kept)
    if !plan.pools.isEmpty {
      text += "# Each Gradle build's lanes share a pool of depth 1: two Gradle runs in one\n"
      text += "# build contend for its locks, so they take turns.\n"
      text += "pools:\n"
      for name in plan.pools.keys.sorted() { text += "  \(YAMLText.scalar(name)): \(plan.pools[name]!)\n" }
      text += "\n"
    }
    text += "lanes:\n"
    if plan.lanes.isEmpty {
      // `lanes: []` would leave a newcomer a file `duet verify` refuses and no
      // shape to copy; one harmless lane shows the form and runs.
      text += exampleLane
    }
    for (index, lane) in plan.lanes.enumerated() {
      if index > 0 { text += "\n" }
      for line in CommentText.lines(YAMLText.comment(lane.reason) + ".", prefix: "  # ") { text += line + "\n" }
      text += "  - name: \(YAMLText.scalar(lane.name))\n"
      switch lane.step {
      case .builtin(let command, let arguments):
        text += "    run: \(YAMLText.scalar(([command] + arguments).joined(separator: " ")))\n"
      case .shell(let command):
        // A command too long for one line is folded at its spaces (`sh: >-`), which YAML reads back as it was.
        let line = "    sh: \(YAMLText.scalar(command))"
        if line.count > 80, let folded = YAMLText.folded(command, indent: "      ", width: 80) {
          text += "    sh: >-\n" + folded.map { $0 + "\n" }.joined()
        } else {
          text += line + "\n"
        }
      }
      if let dir = lane.dir { text += "    dir: \(YAMLText.scalar(dir))\n" }
      if !lane.env.isEmpty {
        text += "    env:\n" + lane.env.map { "      \(YAMLText.scalar($0.name)): \(YAMLText.scalar($0.value))\n" }.joined()
      }
      if !lane.needs.isEmpty { text += "    needs: \(YAMLText.list(lane.needs))\n" }
      if !lane.covers.isEmpty { text += "    covers: \(YAMLText.list(lane.covers))\n" }
      if !lane.requires.isEmpty { text += "    requires: \(YAMLText.list(lane.requires))\n" }
      if !lane.inputs.isEmpty {
        // A flow list while it fits in 80 columns, else one pattern a line.
        let flow = "    inputs: \(YAMLText.list(lane.inputs))"
        text += flow.count <= 80 ? flow + "\n" : "    inputs:\n" + lane.inputs.map { "      - \(YAMLText.scalar($0))\n" }.joined()
      }
      if let pool = lane.pool { text += "    pool: \(YAMLText.scalar(pool))\n" }
      if let platforms = lane.platforms { text += "    platforms: \(YAMLText.list(platforms.map(\.rawValue)))\n" }
      if !lane.outputs.isEmpty { text += "    outputs: \(YAMLText.list(lane.outputs))\n" }
      if !lane.reports.isEmpty {
        let flow = "    reports: \(YAMLText.list(lane.reports))"
        text += flow.count <= 80 ? flow + "\n" : "    reports:\n" + lane.reports.map { "      - \(YAMLText.scalar($0))\n" }.joined()
      }
    }
    if !plan.outside.isEmpty {
      text += "\n# Outside the manifest: checks this tree's CI runs that duet cannot run as a lane.\n"
      for entry in plan.outside {
        for line in CommentText.lines(YAMLText.comment(entry.subject + ": " + entry.reason) + ".", prefix: "#   ") { text += line + "\n" }
      }
    }
    return text
  }

  /// The lane written when the survey found nothing to check.
  package static let exampleLane = """
      # duet init found no token config, mock rows, Gradle modules or Swift
      # packages, so this lane is only an example: replace it with your checks
      # (a lane runs a built-in with run: or a shell command with sh:).
      - name: example
        sh: echo "replace this example lane in lanes/manifest.yaml with your checks"

    """

  /// The replaced manifest's `modules:` and `mocks:`, written back field by field.
  package static func keptSections(_ kept: KeptSections) -> String {
    guard !kept.isEmpty else { return "" }
    var text = "# Kept from the lanes/manifest.yaml this file replaced.\n"
    if !kept.modules.isEmpty { text += "modules: \(YAMLText.list(kept.modules))\n" }
    if !kept.mocks.isEmpty {
      text += "mocks:\n"
      for entry in kept.mocks {
        text += "  - output: \(YAMLText.scalar(entry.output))\n"
        text += "    sources: \(YAMLText.list(entry.sources))\n"
        if entry.include != MockEntry.defaultInclude {
          text += "    include: \(YAMLText.list(entry.include))\n"
        }
        if let generator = entry.generator { text += "    generator: \(YAMLText.scalar(generator))\n" }
        if let bundle = entry.bundle { text += "    bundle: \(YAMLText.scalar(bundle))\n" }
      }
    }
    return text + "\n"
  }
}
