@testable import DuetFuzzSupport
import Foundation
import Testing

/// Debian's `chromium`, headless, for the tests of the pages duet writes
/// (issue 32). A test that needs it fails with the install command when it is
/// missing; it is never skipped.
enum Browser {
  /// Where screenshots are kept for a person to look at after the test run.
  static let screenshots = TestTools.repository.appendingPathComponent(".build/test-screenshots")

  /// What the browser made of one page: its DOM after loading, and its log.
  struct Loaded {
    var dom: String
    var log: String
    /// The console messages and refused loads in the log (none for a page that stands alone).
    var consoleErrors: [String] {
      log.split(separator: "\n").map(String.init).filter { $0.contains("CONSOLE") || $0.contains("Refused to") || $0.contains("net::ERR_") }
    }
  }

  static func path() throws -> String {
    // Debian's package; on macOS the app of Chromium or Chrome (`brew install --cask chromium`).
    let apps = ["/Applications/Chromium.app/Contents/MacOS/Chromium", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"]
    guard let path = TestTools.find("chromium") ?? apps.first(where: FileManager.default.isExecutableFile(atPath:)) else {
      Issue.record("\(TestTools.missing("chromium", for: "the timings page and report tests (issue 32)"))")
      throw BrowserMissing()
    }
    return path
  }

  struct BrowserMissing: Error {}

  /// The flags every run shares: headless, no sandbox (tests may run as root
  /// in a container), a profile of its own, and no way to resolve any host.
  static func flags(profile: URL) -> String {
    "--headless --no-sandbox --disable-gpu --no-first-run --user-data-dir=\(profile.path) --host-resolver-rules='MAP * ~NOTFOUND' --enable-logging=stderr --v=0"
  }

  /// Loads `page` and returns its DOM and log.
  static func load(_ page: URL) throws -> Loaded {
    let chromium = try path()
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("duet-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let run = try shell("timeout 90 '\(chromium)' \(flags(profile: work.appendingPathComponent("profile"))) --dump-dom '\(page.absoluteString)' > dom.html 2> log.txt",
                        in: work)
    let dom = (try? String(contentsOf: work.appendingPathComponent("dom.html"), encoding: .utf8)) ?? ""
    let log = (try? String(contentsOf: work.appendingPathComponent("log.txt"), encoding: .utf8)) ?? ""
    #expect(run.status == 0, "chromium --dump-dom exited \(run.status): \(log.suffix(2000))")
    return Loaded(dom: dom, log: log)
  }

  /// Screenshots `page` into `.build/test-screenshots/<name>.png` (and a dark
  /// one, `<name>-dark.png`); returns their paths.
  @discardableResult
  static func screenshot(_ page: URL, name: String, height: Int = 900) throws -> [URL] {
    let chromium = try path()
    try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
    var made: [URL] = []
    for (suffix, extra) in [("", ""), ("-dark", "--force-dark-mode --blink-settings=preferredColorScheme=0")] {
      let target = screenshots.appendingPathComponent("\(name)\(suffix).png")
      try? FileManager.default.removeItem(at: target)
      let profile = FileManager.default.temporaryDirectory.appendingPathComponent("duet-browser-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: profile) }
      let run = try shell("timeout 90 '\(chromium)' \(flags(profile: profile)) \(extra) --hide-scrollbars --window-size=1200,\(height) --screenshot='\(target.path)' '\(page.absoluteString)'",
                          in: FileManager.default.temporaryDirectory)
      #expect(run.status == 0, "chromium --screenshot exited \(run.status): \(run.output.suffix(2000))")
      let size = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
      #expect(size > 1000, "no screenshot at \(target.path)")
      made.append(target)
    }
    return made
  }

  /// The values of every `src`, `href` and `xlink:href` attribute in `dom`, and every `url(` in it.
  static func references(in dom: String) -> [String] {
    let pattern = try! Regex(#"(?i)(src|href)\s*=\s*"([^"]*)"|url\(([^)]*)\)|@import"#)
    return dom.matches(of: pattern).map { String(dom[$0.range]) }
  }

  /// How many pixels of `png` (8-bit RGB or RGBA, as Chromium writes them) have `colour`, within 3 per channel:
  /// decoded by Python's standard library (zlib), which the test machine has.
  static func pixels(in png: URL, colour: (Int, Int, Int)) throws -> Int {
    let script = """
      import struct, sys, zlib
      data = open(sys.argv[1], 'rb').read()
      pos, idat, width, height, kind = 8, b'', 0, 0, 0
      while pos < len(data):
          size, tag = struct.unpack('>I4s', data[pos:pos + 8])
          body = data[pos + 8:pos + 8 + size]
          if tag == b'IHDR':
              width, height, depth, kind = struct.unpack('>IIBB', body[:10])
          elif tag == b'IDAT':
              idat += body
          pos += 12 + size
      channels = {2: 3, 6: 4}[kind]
      raw, stride, previous, count = zlib.decompress(idat), width * channels, bytearray(width * channels), 0
      want = [int(v) for v in sys.argv[2:5]]
      for y in range(height):
          start = y * (stride + 1)
          filter, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
          for i in range(stride):
              a = line[i - channels] if i >= channels else 0
              b = previous[i]
              c = previous[i - channels] if i >= channels else 0
              if filter == 1: line[i] = (line[i] + a) & 255
              elif filter == 2: line[i] = (line[i] + b) & 255
              elif filter == 3: line[i] = (line[i] + (a + b) // 2) & 255
              elif filter == 4:
                  p = a + b - c
                  pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                  line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
          for x in range(width):
              px = line[x * channels:x * channels + 3]
              if all(abs(px[k] - want[k]) <= 3 for k in range(3)): count += 1
          previous = line
      print(count)
      """
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("duet-pixels-\(UUID().uuidString).py")
    try script.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try shell("python3 '\(file.path)' '\(png.path)' \(colour.0) \(colour.1) \(colour.2)", in: FileManager.default.temporaryDirectory)
    #expect(run.status == 0, "\(run.output)")
    return Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }
}
