@testable import DuetFuzzSupport
import Foundation
import Testing

/// Issue 53, item 2: the nginx configuration docs/verify.md offers to copy
/// failed as copied (every upload HTTP 500: nothing said to make its root
/// folder, nor as whom nginx writes). The suite starts that very text,
/// changing only the port and the folder the page says to make, and a pass
/// travels through it from one clone to another.
@Suite("docs/verify.md's nginx configuration, as copied")
struct DocumentedNginxCLITests {
  static let documentedRoot = "/var/cache/nginx-duet"

  /// The ```nginx block of docs/verify.md.
  static func documentedBlock() throws -> String {
    let page = try String(contentsOf: InstallCLITests.repository.appendingPathComponent("docs/verify.md"), encoding: .utf8)
    let block = try #require(page.components(separatedBy: "```nginx\n").dropFirst().first?.components(separatedBy: "```").first)
    #expect(block.contains("listen 8080;") && block.contains("root \(documentedRoot);"), "the page's block changed its port or root: \(block)")
    return block
  }

  @Test func aPassTravelsThroughTheDocumentedServer() throws {
    let server = try NginxServer.start(documented: try Self.documentedBlock(), root: Self.documentedRoot)
    defer { server.stop() }
    let remote = RemoteCacheCLITests()
    let environment = ["DUET_REMOTE_CACHE": server.url("duet")]
    let ci = try remote.clone()
    let first = try ci.duet("verify", environment: environment.merging(["DUET_REMOTE_CACHE_UPLOAD": "1"]) { $1 })
    #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
    #expect(first.stderr.isEmpty, "uploads to the documented server failed: \(first.stderr)")
    #expect(!server.requests().contains { $0.method == "PUT" && $0.status != "201" && $0.status != "204" }, "\(server.requests())")
    let laptop = try remote.clone()
    let served = try laptop.duet("verify", environment: environment)
    #expect(served.stdout.contains("duet verify: PASS (2 cached)"), "\(served.stdout)\(served.stderr)")
  }
}
