import Foundation
import Testing

/// What every duet process pays before it does anything (issue 42, item 6):
/// the libraries the loader maps and relocates at start.
@Suite("What duet loads at start")
struct StartCostCLITests {
  #if os(Linux)
  /// libcurl, with the ~25 libraries it needs (GnuTLS, Kerberos, LDAP, ...),
  /// cost every start 4 ms; it is loaded only when a remote cache is used, so
  /// the binary does not name it (Sources/CCurl/loader.c).
  @Test func theBinaryDoesNotLinkLibcurl() throws {
    let ldd = Process()
    ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    ldd.arguments = [duetBinary.path]
    let pipe = Pipe()
    ldd.standardOutput = pipe
    try ldd.run()
    let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    ldd.waitUntilExit()
    #expect(ldd.terminationStatus == 0, "\(listed)")
    #expect(listed.contains("libc.so"), "\(listed)")
    #expect(!listed.contains("libcurl"), "\(listed)")
  }
  #endif
}
