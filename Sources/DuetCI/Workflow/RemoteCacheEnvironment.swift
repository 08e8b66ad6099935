import DuetSupport

/// How the generated CI reaches the shared remote cache (issue 37): the
/// repository names it with the variable `DUET_REMOTE_CACHE` (GitHub:
/// `vars.DUET_REMOTE_CACHE`; GitLab: a CI/CD variable) and keeps the token and
/// the signing key as secrets (`DUET_REMOTE_CACHE_TOKEN`,
/// `DUET_REMOTE_CACHE_KEY`; GitLab: masked CI/CD variables). Lane jobs upload
/// what they verify (`DUET_REMOTE_CACHE_UPLOAD=1`). Unset, the variable is
/// empty, which duet treats as no remote cache, so the file is the same either way.
///
/// On GitHub the four go into the `env:` of each `duet verify` step, never the
/// workflow's or the job's: a secret reaches only the steps that use it, not the
/// checkout, the actions or the tree's own setup. GitLab passes CI/CD variables
/// to every job by itself; its lane jobs only set the upload switch.
enum RemoteCacheEnvironment {
  /// The `env:` of a GitHub `duet verify` step, name and value.
  static let gitHubStep: [(name: String, value: String)] = [
    (EnvironmentVariable.remoteCache.rawValue, "${{ vars.DUET_REMOTE_CACHE }}"),
    (EnvironmentVariable.remoteCacheUpload.rawValue, "1"),
    (EnvironmentVariable.remoteCacheToken.rawValue, "${{ secrets.DUET_REMOTE_CACHE_TOKEN }}"),
    (EnvironmentVariable.remoteCacheKey.rawValue, "${{ secrets.DUET_REMOTE_CACHE_KEY }}"),
  ]

  /// The variables of a GitLab lane job.
  static let gitLabJob: [(name: String, value: String)] = [(EnvironmentVariable.remoteCacheUpload.rawValue, "1")]

  /// The comment lines of the GitLab file that say what to set.
  static let gitLabComment: [YAML] = [
    "# To share the remote cache, set the CI/CD variables DUET_REMOTE_CACHE (its URL) and, masked,",
    "# DUET_REMOTE_CACHE_TOKEN and DUET_REMOTE_CACHE_KEY; GitLab passes them to every job, and lane jobs upload.",
  ]
}
