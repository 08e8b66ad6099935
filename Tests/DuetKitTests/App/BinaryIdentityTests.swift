import Foundation
import Testing
@testable import DuetApp

/// duet's own identity, as built-in lanes' fingerprints hold it.
struct BinaryIdentityTests {
  /// A process's code does not change when its file does: the identity a run
  /// recorded first is the one every later run of the same process (a watch)
  /// records, even after the executable is replaced on disk.
  @Test func aProcessKeepsTheIdentityItStartedWith() throws {
    let tree = try TemporaryFolder()
    try tree.write("bin/duet", "first build")
    let executable = tree.url.appendingPathComponent("bin/duet").path
    let identify = BinaryIdentity.once(version: "0.1.0", executable: executable, root: tree.url, remember: false)
    let first = identify()
    #expect(first.hasPrefix("0.1.0 sha256:"))
    try tree.write("bin/duet", "a second build, longer")
    #expect(identify() == first)
    let fresh = BinaryIdentity.once(version: "0.1.0", executable: executable, root: tree.url, remember: false)()
    #expect(fresh != first)
  }
}
