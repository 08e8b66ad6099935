import Foundation
import DuetRun
import DuetTokens
import DuetModel
import DuetSupport

/// `duet workflow github`: a GitHub Actions workflow that runs a manifest's lanes
/// as jobs, one per lane, `needs:` mirroring the lane DAG, so the CI system's own
/// job graph spreads the lanes over runners. Pure and byte-for-byte deterministic:
/// the same manifest and duet version give the same text.
///
/// Each lane job installs duet at the version that wrote the workflow (the
/// release's binary for its runner, else built from source; cached under that
/// version) as `tools/duet`, runs `tools/duet verify --lane NAME
/// --no-deps` with `DUET_HISTORY` pointing at a file of its own, and uploads that
/// store. A last job (`if: always()`) downloads every store, merges them with
/// `duet history merge`, prints `duet flaky`, uploads the merged store, and fails
/// the workflow if any lane job failed or was cancelled.
public enum GitHubWorkflow {
  public static let defaultPath = ".github/workflows/duet.yml"
  /// The id of the last job; no lane job takes it.
  public static let summaryJobID = "duet-history"

  public struct Options: Sendable {
    /// The version of duet writing the workflow (`duetVersion`).
    public var duetVersion: String
    /// Where the manifest was read from, for the header.
    public var manifestPath: String = Manifest.defaultPath
    /// duet's git repository; nil reads it from the repository variable `DUET_GIT_URL`.
    public var duetGitURL: String?
    /// The commit the writing duet was built from (nil when it does not know):
    /// the fallback build's ref when the release tag does not exist.
    public var duetCommit: String?
    public var runsOn = "ubuntu-latest"
    public init(duetVersion: String) { self.duetVersion = duetVersion }
  }

  /// Job ids for `names`, in order, for both CI files. A name that is a valid
  /// job id (a letter or `_`, then letters, digits, `-`, `_`) keeps it, any
  /// other character becoming `_`; one that then does not start with a letter
  /// or `_`, or is a word YAML reads as something else (`null`, `true`, `on`,
  /// `yes`…: YAMLText.reservedWords), a GitLab keyword (`stages`, `variables`,
  /// `image`…) or the history job's id, gets a `lane_` prefix. Two lanes that would share an id (GitHub compares ids without
  /// case) are refused, naming both, rather than renamed behind the user's back.
  public static func jobIDs(for names: [String]) throws(JobIDClash) -> [String] {
    var owner: [String: String] = [summaryJobID.lowercased(): summaryJobID]
    var ids: [String] = []
    for name in names {
      let id = jobID(for: name)
      if let earlier = owner[id.lowercased()] {
        throw JobIDClash(first: earlier, second: name, id: id, isSummaryJob: earlier == summaryJobID)
      }
      owner[id.lowercased()] = name
      ids.append(id)
    }
    return ids
  }

  /// The job id of one lane name (see `jobIDs(for:)`).
  package static func jobID(for name: String) -> String {
    let id = String(name.unicodeScalars.map { isIDCharacter($0) ? Character($0) : "_" })
    return isValidJobID(id) && !isReservedJobID(id) ? id : "lane_" + id
  }

  /// GitLab's top-level keywords and special job names, which a job id must
  /// not take, as lowercase.
  package static let gitLabKeywords: Set<String> = [
    "default", "include", "stages", "variables", "workflow", "image", "services", "cache",
    "before_script", "after_script", "types", "pages", "spec",
  ]

  /// Whether `id` would read as a YAML boolean or null, name a GitLab keyword,
  /// or be the history job's id.
  package static func isReservedJobID(_ id: String) -> Bool {
    let lower = id.lowercased()
    return YAMLText.reservedWords.contains(lower) || gitLabKeywords.contains(lower) || lower == summaryJobID
  }

  /// Two lanes whose names map to one job id.
  public struct JobIDClash: Error, Equatable, CustomStringConvertible {
    public var first: String
    public var second: String
    public var id: String
    public var isSummaryJob: Bool
    public var description: String {
      isSummaryJob
        ? "lane '\(second)' would take the job id '\(id)' of duet's history job; rename the lane in the manifest"
        : "lanes '\(first)' and '\(second)' would both be the CI job '\(id)' (job ids allow only letters, digits, '-' and '_', and GitHub compares them without case); rename one of them in the manifest"
    }
  }

  public static func isValidJobID(_ id: String) -> Bool {
    guard let first = id.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
    return id.unicodeScalars.allSatisfy(isIDCharacter)
  }

  package static func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
  package static func isIDCharacter(_ s: Unicode.Scalar) -> Bool { isLetter(s) || ("0"..."9").contains(s) || s == "-" || s == "_" }

  /// The workflow text for `manifest`.
  public static func render(_ manifest: Manifest, options: Options) throws(JobIDClash) -> String {
    let ids = try jobIDs(for: manifest.lanes.map(\.name))
    var y = header(options)
    for (i, lane) in manifest.lanes.enumerated() {
      y += laneJob(lane, id: ids[i], needs: manifest.graph.needs[i].map { ids[$0] }, manifest: manifest, options: options)
    }
    y += summaryJob(needs: ids, manifest: manifest, options: options)
    return y.joined(separator: "\n") + "\n"
  }

  /// The comment that says where the file comes from, the triggers, and the
  /// duet version every job installs.
  static func header(_ options: Options) -> [String] {
    let version = options.duetVersion
    var y: [String] = []
    y += [
      "# Generated by duet \(version) (`duet workflow github`) from \(YAMLText.comment(options.manifestPath)); do not edit.",
      "# Regenerate it with `duet workflow github`; `duet workflow github --check` fails when it is stale.",
      "# One job per lane, `needs:` mirroring the lane DAG; the last job merges every",
      "# lane's history store and fails the workflow if any lane failed.",
      "name: duet lanes",
      "",
      "on:",
      "  push:",
      "  pull_request:",
      "  workflow_dispatch:",
      "",
      "permissions:",
      "  contents: read",
      "",
      "env:",
      "  DUET_VERSION: \(YAMLText.scalar(version))",
      "  DUET_GIT_URL: \(YAMLText.scalar(options.duetGitURL ?? "${{ vars.DUET_GIT_URL }}"))",
    ]
    if let commit = options.duetCommit { y.append("  DUET_COMMIT: \(YAMLText.scalar(commit))") }
    y += [
      "",
      "jobs:",
    ]
    return y
  }

  /// The job that runs `lane` alone, with a history store of its own it uploads.
  static func laneJob(_ lane: Lane, id: String, needs: [String], manifest: Manifest, options: Options) -> [String] {
    let version = options.duetVersion
    var y: [String] = []
    let history = ".duet/ci/history-\(id).sqlite"
    let perAttempt = (lane.timeout ?? 30 * 60) / 60
    let minutes = Int((perAttempt * Double(lane.retries + 1)).rounded(.up)) + 30
    y.append("  \(id):")
    y.append("    name: \(YAMLText.scalar(lane.name))")
    if !needs.isEmpty { y.append("    needs: [\(needs.joined(separator: ", "))]") }
    y.append("    runs-on: \(labels(manifest.runnerLabels(for: lane, macOSDefault: ["macos-latest"], linuxDefault: [options.runsOn])))")
    y.append("    timeout-minutes: \(minutes)")
    y.append("    env:")
    y.append("      DUET_HISTORY: \(YAMLText.scalar(history))")
    y.append("    steps:")
    y += checkoutAndBuild(version: version)
    y += restoreHistory
    y += [
      "      - name: Start this lane's store from the restored one",
      "        run: mkdir -p .duet/ci && if [ -f .duet/history.sqlite ]; then cp .duet/history.sqlite \"$DUET_HISTORY\"; fi",
      "      - name: \(YAMLText.scalar("duet verify --lane \(lane.name)"))",
      "        run: \(YAMLText.scalar("tools/duet verify --lane \(ShellWord.quoted(lane.name)) --no-deps"))",
      "      - name: Upload the history store",
      "        if: always()",
      "        uses: actions/upload-artifact@v4",
      "        with:",
      "          name: \(YAMLText.scalar("duet-history-\(id)"))",
      "          path: \(YAMLText.scalar(history))",
      "          include-hidden-files: true",
      "          if-no-files-found: warn",
      "          retention-days: 7",
      "",
    ]
    return y
  }

  /// The last job: merges every lane's store, prints `duet flaky`, and fails
  /// the workflow if a lane job failed or was cancelled.
  static func summaryJob(needs ids: [String], manifest: Manifest, options: Options) -> [String] {
    let version = options.duetVersion
    var y: [String] = []
    y.append("  \(summaryJobID):")
    y.append("    name: duet history")
    if !ids.isEmpty { y.append("    needs: [\(ids.joined(separator: ", "))]") }
    y.append("    if: always()")
    y.append("    runs-on: \(labels(manifest.runsOn[.linux] ?? [options.runsOn]))")
    y.append("    timeout-minutes: 30")
    y.append("    steps:")
    y += checkoutAndBuild(version: version)
    y += restoreHistory
    y += [
      "      - name: Download the lanes' history stores",
      "        uses: actions/download-artifact@v4",
      "        with:",
      "          pattern: duet-history-*",
      "          path: .duet/ci/stores",
      "          merge-multiple: true",
      "      - name: duet history merge",
      "        run: |",
      "          shopt -s nullglob",
      "          stores=(.duet/ci/stores/*.sqlite)",
      "          if [ ${#stores[@]} -eq 0 ]; then echo \"no history store was uploaded\"; exit 0; fi",
      "          tools/duet history merge \"${stores[@]}\"",
      "      - name: duet flaky",
      "        run: tools/duet flaky",
      "      - name: Save the merged history for the next runs",
      "        if: always()",
      "        uses: actions/cache/save@v4",
      "        with:",
      "          path: .duet/history.sqlite",
      "          key: \(YAMLText.scalar(historyCacheKey))",
      "      - name: Upload the merged history",
      "        if: always()",
      "        uses: actions/upload-artifact@v4",
      "        with:",
      "          name: duet-history",
      "          path: .duet/history.sqlite",
      "          include-hidden-files: true",
      "          if-no-files-found: warn",
      "      - name: Fail if a lane failed",
      "        if: contains(needs.*.result, 'failure') || contains(needs.*.result, 'cancelled')",
      "        run: |",
      "          echo \"::error title=duet::a lane job failed or was cancelled; see the jobs above\"",
      "          exit 1",
    ]
    return y
  }

  /// The history store's cache key: one entry per run, found again by the
  /// prefix of the branch, else of the default branch.
  package static let historyCacheKey = "duet-history-${{ github.ref_name }}-${{ github.run_id }}"

  /// Restores the newest store of this branch (else the default branch's), so
  /// lanes that passed on any runner with the same fingerprint are cached.
  package static let restoreHistory: [String] = [
    "      - name: Restore the history store",
    "        uses: actions/cache/restore@v4",
    "        with:",
    "          path: .duet/history.sqlite",
    "          key: \(YAMLText.scalar(historyCacheKey))",
    "          restore-keys: |",
    "            duet-history-${{ github.ref_name }}-",
    "            duet-history-${{ github.event.repository.default_branch }}-",
  ]

  /// One label as a scalar, several as a flow list.
  package static func labels(_ labels: [String]) -> String {
    labels.count == 1 ? YAMLText.scalar(labels[0]) : "[" + labels.map(YAMLText.scalar).joined(separator: ", ") + "]"
  }

  /// Checkout, then duet at `version`, restored from the cache or installed by
  /// `installScript`, as `tools/duet` in the checkout (replacing a launcher script
  /// there, so every job runs exactly that version).
  package static func checkoutAndBuild(version: String) -> [String] {
    [
      "      - uses: actions/checkout@v4",
      "      - name: Cache duet \(version)",
      "        id: duet-cache",
      "        uses: actions/cache@v4",
      "        with:",
      "          path: ~/.duet-tool/\(version)",
      "          key: \(YAMLText.scalar("duet-\(version)-${{ runner.os }}-${{ runner.arch }}"))",
      "      - name: Install duet \(version)",
      "        run: |",
    ] + installScript.map { $0.isEmpty ? "" : "          " + $0 }
  }

  /// The step that puts duet at `$DUET_VERSION` in `tools/duet`, shared by the
  /// generated workflow and `workflows/duet-verify.yml` (a test keeps the two the
  /// same). First the release's binary for this runner (`duet-VERSION-OS-ARCH.tar.gz`,
  /// as the release workflow names it); without one, a build from source at the
  /// release tag, else at the commit the writing duet was built from
  /// (`DUET_COMMIT`), else at the default branch, so it never asks for a ref that
  /// does not exist. The C libraries are installed only when needed.
  public static let installScript: [String] = [
    "set -euo pipefail",
    "bin=\"$HOME/.duet-tool/$DUET_VERSION/duet\"",
    "os=\"$(uname -s | tr '[:upper:]' '[:lower:]')\"",
    "if [ ! -x \"$bin\" ]; then",
    "  : \"${DUET_GIT_URL:?set the repository variable DUET_GIT_URL to the git URL of duet}\"",
    "  asset=\"duet-$DUET_VERSION-$os-$(uname -m)\"",
    "  mkdir -p \"$(dirname \"$bin\")\"",
    "  if curl -fsSL --retry 3 -o \"$RUNNER_TEMP/$asset.tar.gz\" \"${DUET_GIT_URL%.git}/releases/download/v$DUET_VERSION/$asset.tar.gz\"; then",
    "    tar -xzf \"$RUNNER_TEMP/$asset.tar.gz\" -C \"$RUNNER_TEMP\"",
    "    cp \"$RUNNER_TEMP/$asset/bin/duet\" \"$bin\"",
    "  else",
    "    echo \"::notice title=duet::no release binary $asset.tar.gz; building duet from source\"",
    "    if [ \"$os\" = linux ]; then",
    "      sudo apt-get update -q && sudo apt-get install -y -q libsqlite3-dev libyaml-dev libssl-dev",
    "    else",
    "      brew install libyaml",
    "    fi",
    "    src=\"$RUNNER_TEMP/duet-src\"",
    "    git init -q \"$src\"",
    "    git -C \"$src\" remote add origin \"$DUET_GIT_URL\"",
    "    # The release tag, else the commit that wrote this workflow, else the default branch.",
    "    for ref in \"v$DUET_VERSION\" ${DUET_COMMIT:-} HEAD; do",
    "      if git -C \"$src\" fetch -q --depth 1 origin \"$ref\"; then break; fi",
    "    done",
    "    git -C \"$src\" checkout -q FETCH_HEAD",
    "    swift build -c release --package-path \"$src\" --product duet",
    "    cp \"$(swift build -c release --package-path \"$src\" --product duet --show-bin-path)/duet\" \"$bin\"",
    "  fi",
    "fi",
    "mkdir -p tools",
    "install -m 755 \"$bin\" tools/duet",
    "if ! tools/duet --version; then",
    "  if [ \"$os\" = linux ]; then",
    "    sudo apt-get update -q && sudo apt-get install -y -q libsqlite3-0 libyaml-0-2 libssl3",
    "  else",
    "    brew install libyaml",
    "  fi",
    "  tools/duet --version",
    "fi",
  ]
}
