import Foundation
import DuetModel
import DuetSupport

/// `duet workflow github`: a GitHub Actions workflow that runs a manifest's lanes
/// as jobs (`CIJobPlan`: grouped per platform and DAG level, or one per lane),
/// `needs:` mirroring the lane DAG, so the CI system's own job graph spreads the
/// lanes over runners. Pure and byte-for-byte deterministic: the same manifest,
/// durations and duet version give the same text.
///
/// One job per runner platform builds duet once (the release's binary, else from
/// source; cached under its version) and hands it on as an artifact; each lane
/// job puts it on `PATH` outside the checkout (a tree's own `tools/duet` is left
/// alone), sets up the JDK and the Gradle and Kotlin/Native caches when the tree
/// builds with Gradle, selects Xcode on macOS, unpacks the `outputs:` of the jobs
/// it needs, runs `duet verify --lane … --no-deps --strict --junit` with a history
/// store of its own, and uploads that store (and its own `outputs:` when a later
/// job reads them). A last job (`if: always()`) merges every store, prints
/// `duet flaky`, saves the merged store, and fails the workflow if any job failed.
/// Every action is pinned to a commit (`PinnedAction`), the token reads only.
package enum GitHubWorkflow {
  package static let defaultPath = ".github/workflows/duet.yml"
  /// The id of the last job; no lane job takes it.
  package static let summaryJobID = "duet-history"

  package struct Options: Sendable {
    /// The version of duet writing the workflow (`duetVersion`).
    var duetVersion: String
    /// Where the manifest was read from, for the header.
    package var manifestPath: String = Manifest.defaultPath
    /// duet's git repository; nil reads it from the repository variable `DUET_GIT_URL`.
    package var duetGitURL: String?
    /// The commit the writing duet was built from (nil when it does not know):
    /// the fallback build's ref when the release tag does not exist.
    package var duetCommit: String?
    var runsOn = "ubuntu-latest"
    var macOSRunsOn = "macos-latest"
    /// How lanes become jobs.
    package var jobs = CIJobPlan.Options()
    /// What the tree's build needs on every runner.
    package var toolchains = CIToolchains()
    package init(duetVersion: String) { self.duetVersion = duetVersion }
  }

  /// Job ids for `names`, in order, for both CI files. A name that is a valid
  /// job id (a letter or `_`, then letters, digits, `-`, `_`) keeps it, any
  /// other character becoming `_`; one that then does not start with a letter
  /// or `_`, or is a word YAML reads as something else (`null`, `true`, `on`,
  /// `yes`…: YAMLText.reservedWords), a GitLab keyword (`stages`, `variables`,
  /// `image`…) or the history job's id, gets a `lane_` prefix. Two lanes that would share an id (GitHub compares ids without
  /// case) are refused, naming both, rather than renamed behind the user's back.
  static func jobIDs(for names: [String]) throws(JobIDClash) -> [String] {
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
  static func jobID(for name: String) -> String {
    let id = String(name.unicodeScalars.map { isIDCharacter($0) ? Character($0) : "_" })
    return isValidJobID(id) && !isReservedJobID(id) ? id : "lane_" + id
  }

  /// GitLab's top-level keywords and special job names, which a job id must
  /// not take, as lowercase.
  static let gitLabKeywords: Set<String> = [
    "default", "include", "stages", "variables", "workflow", "image", "services", "cache",
    "before_script", "after_script", "types", "pages", "spec",
  ]

  /// Whether `id` would read as a YAML boolean or null, name a GitLab keyword,
  /// or be the history job's id.
  static func isReservedJobID(_ id: String) -> Bool {
    let lower = id.lowercased()
    return YAMLText.reservedWords.contains(lower) || gitLabKeywords.contains(lower) || lower == summaryJobID
      || CIToolchains.buildJobIDs.contains(lower)
  }

  /// Two lanes whose names map to one job id.
  package struct JobIDClash: Error, Equatable, CustomStringConvertible {
    var first: String
    var second: String
    var id: String
    var isSummaryJob: Bool
    package var description: String {
      isSummaryJob
        ? "lane '\(second)' would take the job id '\(id)' of duet's history job; rename the lane in the manifest"
        : "lanes '\(first)' and '\(second)' would both be the CI job '\(id)' (job ids allow only letters, digits, '-' and '_', and GitHub compares them without case); rename one of them in the manifest"
    }
  }

  static func isValidJobID(_ id: String) -> Bool {
    guard let first = id.unicodeScalars.first, isLetter(first) || first == "_" else { return false }
    return id.unicodeScalars.allSatisfy(isIDCharacter)
  }

  static func isLetter(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) }
  static func isIDCharacter(_ s: Unicode.Scalar) -> Bool { isLetter(s) || ("0"..."9").contains(s) || s == "-" || s == "_" }

  /// The step that puts duet at `$DUET_VERSION` on `PATH`, shared by the
  /// generated workflow and `workflows/duet-verify.yml` (a test keeps the two the
  /// same). First the release's binary for this runner (`duet-VERSION-OS-ARCH.tar.gz`,
  /// as the release workflow names it); without one, a build from source at the
  /// release tag, else at the commit the writing duet was built from
  /// (`DUET_COMMIT`), else at the default branch, so it never asks for a ref that
  /// does not exist. The C libraries are installed only when needed.
  static let installScript: [ShellText] = [
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
    "# Outside the checkout, so a launcher the tree keeps for its own toolchain stays as it is.",
    "mkdir -p \"$RUNNER_TEMP/duet-bin\"",
    "install -m 755 \"$bin\" \"$RUNNER_TEMP/duet-bin/duet\"",
  ] + onPath(onLinux: "[ \"$os\" = linux ]")

  /// The step of a lane job that unpacks the build job's duet (`duet.tar`,
  /// downloaded to `$RUNNER_TEMP`) outside the checkout and puts it on `PATH`.
  static let unpackDuet: [ShellText] = [
    "set -euo pipefail",
    "mkdir -p \"$RUNNER_TEMP/duet-bin\"",
    "tar -xf \"$RUNNER_TEMP/duet.tar\" -C \"$RUNNER_TEMP/duet-bin\"",
  ] + onPath(onLinux: "[ \"$(uname -s)\" = Linux ]")

  /// The lines that put `$RUNNER_TEMP/duet-bin` on the job's `PATH` and, when
  /// the duet there does not start, install the libraries it links (`onLinux`:
  /// the shell test that tells Linux from macOS) and try it again.
  static func onPath(onLinux: ShellText) -> [ShellText] {
    [
      "echo \"$RUNNER_TEMP/duet-bin\" >> \"$GITHUB_PATH\"",
      "if ! \"$RUNNER_TEMP/duet-bin/duet\" --version; then",
      "  if \(onLinux); then",
      "    sudo apt-get update -q && sudo apt-get install -y -q libsqlite3-0 libyaml-0-2 libssl3",
      "  else",
      "    brew install libyaml",
      "  fi",
      "  \"$RUNNER_TEMP/duet-bin/duet\" --version",
      "fi",
    ]
  }
}
