/// Text that is YAML, and the only text the YAML writers (the GitHub workflow,
/// the GitLab pipeline, init's manifest) build their documents of: duet's own
/// YAML as literals, `YAMLText`'s escaping, and joins of these (see `Escaped`).
/// A lane's name, a path or a shell command interpolated into YAML is escaped
/// as a scalar on the way in, whatever its variable is called.
package typealias YAML = Escaped<YAMLText>
