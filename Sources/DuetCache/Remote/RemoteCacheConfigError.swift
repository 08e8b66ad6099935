import DuetSupport

/// A remote-cache setting duet cannot use, named by where it came from (the
/// `--remote-cache` flag or a `DUET_REMOTE_CACHE*` variable). The message quotes
/// the value only when it holds no secret, and a URL only in its redacted form
/// (no user, no password, no query), so the error can be printed anywhere.
package struct RemoteCacheConfigError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `--remote-cache` or the variable's name.
  var source: String
  /// What is wrong, lowercase: `expected an http:// or https:// URL, got "ftp://host/x"`.
  var message: TerminalLine

  package var description: String { "\(source): \(message)" }
}
