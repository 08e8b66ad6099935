import DuetSupport
import Foundation

/// The remote cache's URL, taken apart once: the base duet shows and requests
/// under, and the credentials it must never show.
extension RemoteCacheConfig {
  /// `url` as `(base, user, password)`: http or https, a host, an optional
  /// port, a path; no query or fragment (a cache URL needs none, and a token
  /// there would end up in logs). Userinfo is percent-decoded.
  static func parse(url: String, source: String) throws(RemoteCacheConfigError) -> (base: String, user: String?, password: String?) {
    let shown: TerminalLine = "\"\(redact(url))\""
    func refuse(_ message: TerminalLine) -> RemoteCacheConfigError { RemoteCacheConfigError(source: source, message: message) }
    let lower = url.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
      throw refuse("expected an http:// or https:// URL, got \(shown)")
    }
    guard !url.contains("?"), !url.contains("#") else {
      throw refuse("a query or fragment is not allowed in the cache URL, got \(shown)")
    }
    guard url.utf8.count <= 2048, !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
      let components = URLComponents(string: url)
    else {
      throw refuse("not a valid URL: \(shown)")
    }
    guard let host = components.percentEncodedHost, !host.isEmpty else { throw refuse("no host in \(shown)") }
    if let port = components.port, !(1...65535).contains(port) { throw refuse("port \(port) is out of range in \(shown)") }
    if let user = components.user, user.contains(":") { throw refuse("the user in \(shown) holds ':', which basic auth cannot send") }
    var base = withoutUserinfo(url)
    while base.hasSuffix("/") { base.removeLast() }
    let scheme = lower.hasPrefix("https://") ? "https" : "http"
    base = scheme + base.drop { $0 != ":" }
    let user = components.user.flatMap { $0.isEmpty ? nil : $0 }
    return (base, user, user == nil ? nil : (components.password ?? ""))
  }

  /// `url` safe to print even when it is malformed: everything from the start
  /// of the authority to the last `@` dropped (over-redacting a path with an
  /// `@` is harmless; a password holding `#` or `/` must not half-show), the
  /// query and fragment cut to `?…`, control characters escaped (a terminal
  /// line).
  package static func redact(_ url: String) -> TerminalLine {
    var text = withoutUserinfo(url, upToLastAt: true)
    if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] + "?…" }
    if text.count > 200 { text = text.prefix(200) + "…" }
    return "\(text)"
  }

  /// `url` without `user:password@`. A well-formed URL's userinfo ends at the
  /// last `@` before the path; `upToLastAt` takes the last `@` anywhere.
  private static func withoutUserinfo(_ url: String, upToLastAt: Bool = false) -> String {
    let start = url.range(of: "://")?.upperBound ?? url.startIndex
    let end = upToLastAt ? url.endIndex : (url[start...].firstIndex { $0 == "/" } ?? url.endIndex)
    guard let at = url[start..<end].lastIndex(of: "@") else { return url }
    return String(url[..<start] + url[url.index(after: at)...])
  }
}
