import Foundation
import DuetModel
import DuetSupport

extension GitHubWorkflow {
  /// The job that runs `job`'s lanes with a history store of its own, which it
  /// uploads, unpacking first the `outputs:` of the jobs it reads from and
  /// packing its own for the jobs that read them.
  static func laneJob(_ job: CIJobPlan.Job, plan: CIJobPlan, manifest: Manifest, options: Options) -> [YAML] {
    let id = job.id
    let lanes = job.lanes.map { manifest.lanes[$0] }
    let history = ".duet/ci/history-\(id).sqlite"
    let build = CIToolchains.buildJobID(macOS: job.macOS)
    let upstream = job.needs.map { plan.jobs[$0].id }
    var y: [YAML] = []
    y.append("  \(id, in: .identifier):")
    y.append("    name: \(jobName(job, lanes: lanes, oneJobPerLane: options.jobs.oneJobPerLane))")
    let needs = [build] + upstream
    y.append("    needs: \(idList(needs))")
    // Lanes are gated one by one (duet reads the upstream verdicts), so the job
    // runs whatever the jobs it needs did, once duet is built.
    y.append("    if: ${{ !cancelled() && needs.\(build, in: .identifier).result == 'success' }}")
    y.append("    runs-on: \(labels(job.labels))")
    y += timeoutMinutes(jobMinutes(lanes))
    y.append("    env:")
    y.append("      DUET_HISTORY: \(history)")
    y.append("    steps:")
    y += checkoutAndDuet(macOS: job.macOS)
    y += toolchainSteps(options.toolchains, macOS: job.macOS, androidSDK: CIToolchains.needAndroidSDK(lanes))
    y += restoreHistory
    y += receiveStores(upstream)
    y += receiveOutputs(job.receives.map { plan.jobs[$0].id })
    y += [
      "      - name: Start this job's store from the restored one",
      "        run: mkdir -p .duet/ci && if [ -f .duet/history.sqlite ]; then cp .duet/history.sqlite \"$DUET_HISTORY\"; fi",
    ]
    let stores = upstream.map { UpstreamArgument(job: $0, store: ".duet/upstream/duet-history-\($0)/history-\($0).sqlite") }
    for (i, run) in verifyRuns(lanes, handsOn: job.handsOn, id: id, upstream: stores).enumerated() {
      let title = run.lanes.count > 5 ? "duet verify: \(run.lanes.count) lanes" : "duet verify " + run.lanes.map { "--lane " + $0.name }.joined(separator: " ")
      let command: ShellText = "duet verify \(run.arguments)"
      y.append("      - name: \(title)")
      if i > 0 { y.append("        if: always()") }
      y.append("        env:")
      y += RemoteCacheEnvironment.gitHubStep.map { "          \($0.name): \($0.value)" }
      y.append("        run: \(command)")
    }
    y += handOnOutputs(job.handsOn, id: id)
    y += [
      "      - name: Upload the history store and the JUnit reports",
      "        if: always()",
      "        uses: \(PinnedAction.uploadArtifact.uses)",
      "        with:",
      "          name: \("duet-history-\(id)")",
      "          path: .duet/ci/",
      "          include-hidden-files: true",
      "          if-no-files-found: warn",
      "          retention-days: 7",
      "",
    ]
    return y
  }

  /// The `duet verify` calls of a job: first the lanes whose `outputs:` a later
  /// job reads (cached like any lane: a cached pass restores its outputs, and
  /// a pass whose outputs cannot come back runs), then the others,
  /// each with its JUnit report `.duet/ci/junit-ID[-outputs].xml`.
  /// Every call names the history stores of the jobs this one needs
  /// (`--upstream JOB=STORE`), so duet skips a lane whose need did not pass there.
  static func verifyRuns(_ lanes: [Lane], handsOn: [String], id: String, upstream: [UpstreamArgument] = []) -> [(lanes: [Lane], arguments: ShellText)] {
    let handed = Set(handsOn)
    let producers = lanes.filter { $0.outputs.contains(where: handed.contains) }
    let others = lanes.filter { !$0.outputs.contains(where: handed.contains) }
    var runs: [(lanes: [Lane], arguments: ShellText)] = []
    if !producers.isEmpty { runs.append((producers, verifyArguments(producers, junit: ".duet/ci/junit-\(id)-outputs.xml", upstream: upstream))) }
    if !others.isEmpty { runs.append((others, verifyArguments(others, junit: ".duet/ci/junit-\(id).xml", upstream: upstream))) }
    return runs
  }

  /// `--lane A --lane B --no-deps --strict --junit FILE --seal [--upstream JOB=STORE…]`, each name a shell word.
  /// `--seal`: the job's verdicts are sealed beside its store, and the jobs
  /// after it believe only a store that matches its seal (issue 52, item 6b).
  static func verifyArguments(_ lanes: [Lane], junit: String, upstream: [UpstreamArgument] = []) -> ShellText {
    let names: [ShellText] = lanes.map { "--lane \($0.name)" }
    let stores: [ShellText] = upstream.map { " --upstream \($0.job + "=" + $0.store)" }
    return "\(names.joined(separator: " ")) --no-deps --strict --junit \(junit) --seal\(stores.joined())"
  }

  /// One `--upstream`: a job this one needs and where its history store lands.
  struct UpstreamArgument: Sendable {
    var job: String
    var store: String
  }

  /// A one-lane job is named after its lane; a group by its id and lanes (the first few).
  static func jobName(_ job: CIJobPlan.Job, lanes: [Lane], oneJobPerLane: Bool) -> String {
    if oneJobPerLane || lanes.count == 1 { return lanes[0].name }
    let shown = lanes.prefix(5).map(\.name).joined(separator: ", ")
    let more = lanes.count > 5 ? " and " + String(lanes.count - 5) + " more" : ""
    return job.id + ": " + shown + more
  }

  /// The most minutes GitHub's hosted runners let a job run (they refuse more).
  static let maxJobMinutes = 360

  /// `timeout-minutes:`, at most `maxJobMinutes`, with a comment saying what
  /// the lanes would need when that is more: the lanes' own timeouts still
  /// stop them, and a job that must run longer needs a self-hosted runner.
  static func timeoutMinutes(_ minutes: Int) -> [YAML] {
    guard minutes > maxJobMinutes else { return ["    timeout-minutes: \(minutes)"] }
    return [
      "    # Its lanes may take \(minutes) minutes; GitHub's hosted runners stop a job at \(maxJobMinutes).",
      "    timeout-minutes: \(maxJobMinutes)",
    ]
  }

  /// Every lane's timeout (30 minutes when it sets none) times its attempts, plus 30 minutes.
  static func jobMinutes(_ lanes: [Lane]) -> Int {
    let minutes = lanes.reduce(0.0) { $0 + ($1.timeout ?? 30 * 60) / 60 * Double($1.retries + 1) }
    return Int(minutes.rounded(.up)) + 30
  }

  /// Downloads the history stores of the jobs `from` (to
  /// `.duet/upstream/duet-history-ID/`), whose verdicts gate this job's lanes. By
  /// `pattern:`, so a job that uploaded none (it failed before duet ran) fails
  /// nothing here: duet then finds no verdict and skips the lanes needing it.
  static func receiveStores(_ from: [String]) -> [YAML] {
    from.flatMap { id -> [YAML] in
      [
        "      - name: \("Download the history store of \(id)")",
        "        uses: \(PinnedAction.downloadArtifact.uses)",
        "        with:",
        "          pattern: \("duet-history-\(id)")",
        "          path: .duet/upstream",
      ]
    }
  }

  /// Downloads and unpacks the `outputs:` the jobs `from` hand on. By
  /// `pattern:`: a job whose producers failed hands nothing on, and the lanes
  /// reading it are skipped by duet, while the others of this job still run.
  static func receiveOutputs(_ from: [String]) -> [YAML] {
    guard !from.isEmpty else { return [] }
    var y: [YAML] = []
    for id in from {
      y += [
        "      - name: \("Download the outputs of \(id)")",
        "        uses: \(PinnedAction.downloadArtifact.uses)",
        "        with:",
        "          pattern: \("duet-outputs-\(id)")",
        "          path: ${{ runner.temp }}/duet-outputs",
        "          merge-multiple: true",
      ]
    }
    y += [
      "      - name: Unpack the outputs of the jobs this one needs",
      "        run: shopt -s nullglob; for pack in \"$RUNNER_TEMP\"/duet-outputs/*.tar; do tar -xf \"$pack\"; done",
    ]
    return y
  }

  /// Packs the `paths` that exist (files keep their modes and links) and
  /// uploads them for the jobs whose lanes read them, unless the run was
  /// cancelled: a lane of this job that failed must not keep another's outputs
  /// from the jobs that read them.
  static func handOnOutputs(_ paths: [String], id: String) -> [YAML] {
    guard !paths.isEmpty else { return [] }
    let pack: ShellText = "mkdir -p \"$RUNNER_TEMP/duet-outputs\"; packed=(); for path in "
      + paths.map(ShellWord.quoted).joined(separator: " ")
      + "; do if [ -e \"$path\" ]; then packed+=(\"$path\"); fi; done; "
      + "if [ ${#packed[@]} -gt 0 ]; then tar -cf \"$RUNNER_TEMP/duet-outputs/\(id).tar\" -- \"${packed[@]}\"; fi"
    return [
      "      - name: Pack the outputs later jobs read",
      "        if: ${{ !cancelled() }}",
      "        run: \(pack)",
      "      - name: Upload the outputs",
      "        if: ${{ !cancelled() }}",
      "        uses: \(PinnedAction.uploadArtifact.uses)",
      "        with:",
      "          name: \("duet-outputs-\(id)")",
      "          path: \("${{ runner.temp }}/duet-outputs/\(id).tar")",
      "          if-no-files-found: ignore",
      "          retention-days: 1",
    ]
  }

  /// The last job: merges every job's store, prints `duet flaky`, saves the
  /// merged store, and fails the workflow if a job failed or was cancelled.
  static func summaryJob(needs ids: [String], manifest: Manifest, options: Options) -> [YAML] {
    var y: [YAML] = []
    y.append("  \(summaryJobID, in: .identifier):")
    y.append("    name: duet history")
    y.append("    needs: \(idList(ids))")
    y.append("    if: always()")
    y.append("    runs-on: \(labels(manifest.runsOn[.linux] ?? [options.runsOn]))")
    y.append("    timeout-minutes: 30")
    y.append("    steps:")
    y += checkoutAndDuet(macOS: false)
    y += restoreHistory
    y += [
      "      - name: Download the jobs' history stores",
      "        uses: \(PinnedAction.downloadArtifact.uses)",
      "        with:",
      "          pattern: duet-history-*",
      "          path: .duet/ci/stores",
      "          merge-multiple: true",
      "      - name: duet history merge",
      // The pipeline's runs travel through the remote cache too (`duet history pull`).
      "        env:",
    ]
    y += RemoteCacheEnvironment.gitHubStep.map { "          \($0.name): \($0.value)" }
    y += [
      "        run: |",
      "          shopt -s nullglob",
      "          stores=(.duet/ci/stores/*.sqlite)",
      "          if [ ${#stores[@]} -eq 0 ]; then echo \"no history store was uploaded\"; exit 0; fi",
      "          duet history merge --sealed \"${stores[@]}\"",
      "      - name: duet flaky",
      "        run: duet flaky",
      "      - name: Save the merged history for the next runs",
      "        if: always()",
      "        uses: \(PinnedAction.cacheSave.uses)",
      "        with:",
      "          path: |",
      "            .duet/history.sqlite",
      "            .duet/cache/ac",
      "          key: \(historyCacheKey)",
      "      - name: Upload the merged history",
      "        if: always()",
      "        uses: \(PinnedAction.uploadArtifact.uses)",
      "        with:",
      "          name: duet-history",
      "          path: .duet/history.sqlite",
      "          include-hidden-files: true",
      "          if-no-files-found: warn",
      "      - name: Fail if a job failed",
      "        if: contains(needs.*.result, 'failure') || contains(needs.*.result, 'cancelled')",
      "        run: |",
      "          echo \"::error title=duet::a job failed or was cancelled; see the jobs above\"",
      "          exit 1",
    ]
    return y
  }

  /// The history store's cache key: one entry per run, found again by the
  /// prefix of the branch, else of the default branch.
  static let historyCacheKey = "duet-history-${{ github.ref_name }}-${{ github.run_id }}"

  /// Restores the newest store of this branch (else the default branch's) and
  /// the cache entries `history merge` kept of its passes, so lanes that passed
  /// on any runner with the same fingerprint are cached (the entry serves them;
  /// the history is its log, issue 51).
  static let restoreHistory: [YAML] = [
    "      - name: Restore the history store",
    "        uses: \(PinnedAction.cacheRestore.uses)",
    "        with:",
    "          path: |",
    "            .duet/history.sqlite",
    "            .duet/cache/ac",
    "          key: \(historyCacheKey)",
    "          restore-keys: |",
    "            duet-history-${{ github.ref_name }}-",
    "            duet-history-${{ github.event.repository.default_branch }}-",
  ]

  /// One label as a scalar, several as a flow list.
  static func labels(_ labels: [String]) -> YAML {
    labels.count == 1 ? YAMLText.scalar(labels[0]) : YAMLText.list(labels)
  }

  /// Job ids as a flow list: `[a, b]`.
  static func idList(_ ids: [String]) -> YAML {
    "[\(ids.map { YAML(escaping: $0, in: .identifier) }.joined(separator: ", "))]"
  }
}
