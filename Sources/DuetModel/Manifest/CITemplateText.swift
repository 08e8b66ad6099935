import DuetSupport

/// Manifest values that the generated CI writes into its own file (`outputs:`
/// paths, `runs-on:` labels; lane names cannot hold `$` at all) must not hold
/// the CI's template syntax: GitHub expands `${{ … }}` wherever it stands in a
/// workflow (in `run:`, and in `env:` too, so passing the value through an
/// environment variable is no escape), and GitLab expands `$[[ … ]]` (inputs)
/// in `.gitlab-ci.yml`, both before any shell runs. A manifest holding
/// `outputs: ["${{ github.event.pull_request.title }}"]` would let a pull
/// request's title run in the job (template injection). Such a value is
/// refused when the manifest loads; `sh:` commands are run by duet inside the
/// job and never written into the file, so they may hold anything, and plain
/// `$VAR` text is left to the shell in both files.
enum CITemplateText {
  /// The template openers the CI systems expand in their files.
  static let openers = ["${{", "$[["]

  /// The opener `value` holds, nil when it holds none.
  static func opener(in value: String) -> String? {
    openers.first { value.contains($0) }
  }

  /// Adds an error for `value` (of `key`, on `owner`) when it holds an opener.
  /// Returns whether the value may be written.
  @discardableResult
  static func check(_ value: String, key: String, owner: String, at location: SourceLocation, diagnostics: inout DiagnosticList) -> Bool {
    guard let opener = opener(in: value) else { return true }
    diagnostics.add("\(owner): '\(key)' is written into the generated CI file, where the CI would expand \"\(opener)\" before any shell runs (template injection); got \"\(value)\"", at: location)
    return false
  }
}
