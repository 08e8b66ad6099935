import Foundation
import DuetTokens
import DuetModel
import DuetSupport

/// Renders an adoption plan as a commented `lanes/manifest.yaml`: each lane with
/// the reason it exists above it, so a reader of the file knows what to keep.
/// Built as `YAML`, so every name, command and path goes in escaped; returns
/// its text, which `duet init` writes.
package enum ManifestWriter {
  package static func render(_ plan: AdoptionPlan) -> String {
    var text: YAML = """
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
      for name in plan.pools.keys.sorted() { text += "  \(name): \(plan.pools[name]!)\n" }
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
      text += self.lane(lane)
    }
    if !plan.outside.isEmpty {
      text += "\n# Outside the manifest: checks this tree's CI runs that duet cannot run as a lane.\n"
      for entry in plan.outside { text += comment(entry.subject + ": " + entry.reason + ".", prefix: "#   ") }
    }
    return text.text
  }

  /// `text` as comment lines after `prefix`, wrapped at 80 columns once escaped.
  static func comment(_ text: String, prefix: String) -> YAML {
    // The escaped comment, cut at its spaces: each line holds no line break.
    CommentText.lines(YAMLText.comment(text).text, prefix: prefix).map { "\($0, in: .line)\n" as YAML }.joined()
  }

  /// One planned lane, its reason as a comment above it.
  static func lane(_ lane: AdoptionPlan.PlannedLane) -> YAML {
    var text = comment(lane.reason + ".", prefix: "  # ")
    text += "  - name: \(lane.name)\n"
    switch lane.step {
    case .builtin(let command, let arguments):
      text += "    run: \(([command] + arguments).joined(separator: " "))\n"
    case .shell(let command):
      // A command too long for one line is folded at its spaces (`sh: >-`), which YAML reads back as it was.
      let line: YAML = "    sh: \(command)"
      if line.text.count > 80, let folded = YAMLText.folded(command, indent: "      ", width: 80) {
        text += "    sh: >-\n" + folded.map { $0 + "\n" }.joined()
      } else {
        text += line + "\n"
      }
    }
    if let dir = lane.dir { text += "    dir: \(dir)\n" }
    if !lane.env.isEmpty {
      text += "    env:\n" + lane.env.map { "      \($0.name): \($0.value)\n" as YAML }.joined()
    }
    if !lane.needs.isEmpty { text += "    needs: \(YAMLText.list(lane.needs))\n" }
    if !lane.covers.isEmpty { text += "    covers: \(YAMLText.list(lane.covers))\n" }
    if !lane.requires.isEmpty { text += "    requires: \(YAMLText.list(lane.requires))\n" }
    if !lane.inputs.isEmpty { text += list("inputs", lane.inputs) }
    if let pool = lane.pool { text += "    pool: \(pool)\n" }
    if let platforms = lane.platforms { text += "    platforms: \(YAMLText.list(platforms.map(\.rawValue)))\n" }
    if !lane.outputs.isEmpty { text += "    outputs: \(YAMLText.list(lane.outputs))\n" }
    if !lane.reports.isEmpty { text += list("reports", lane.reports) }
    return text
  }

  /// A lane's `key:` list: a flow list while it fits in 80 columns, else one item a line.
  static func list(_ key: String, _ items: [String]) -> YAML {
    let flow: YAML = "    \(key): \(YAMLText.list(items))"
    if flow.text.count <= 80 { return flow + "\n" }
    return "    \(key):\n" + items.map { "      - \($0)\n" as YAML }.joined()
  }

  /// The lane written when the survey found nothing to check.
  static let exampleLane: YAML = """
      # duet init found no token config, mock rows, Gradle modules or Swift
      # packages, so this lane is only an example: replace it with your checks
      # (a lane runs a built-in with run: or a shell command with sh:).
      - name: example
        sh: echo "replace this example lane in lanes/manifest.yaml with your checks"

    """

  /// The replaced manifest's `modules:` and `mocks:`, written back field by field.
  static func keptSections(_ kept: KeptSections) -> YAML {
    guard !kept.isEmpty else { return "" }
    var text: YAML = "# Kept from the lanes/manifest.yaml this file replaced.\n"
    if !kept.modules.isEmpty { text += "modules: \(YAMLText.list(kept.modules))\n" }
    if !kept.mocks.isEmpty {
      text += "mocks:\n"
      for entry in kept.mocks {
        text += "  - output: \(entry.output)\n"
        text += "    sources: \(YAMLText.list(entry.sources))\n"
        if entry.include != MockEntry.defaultInclude {
          text += "    include: \(YAMLText.list(entry.include))\n"
        }
        if let generator = entry.generator { text += "    generator: \(generator)\n" }
        if let bundle = entry.bundle { text += "    bundle: \(bundle)\n" }
      }
    }
    return text + "\n"
  }
}
