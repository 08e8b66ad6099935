import Foundation
import Testing
@testable import DuetModel
@testable import DuetOutput
@testable import DuetSupport

/// `duet lanes --json` as a value: the bytes the dictionary printed, and a round trip.
struct LanesJSONTests {
  @Test func bytesAsBefore() throws {
    let text = """
      version: 1
      pools: {gradle: 1}
      lanes:
        - {name: kotlin, sh: ./gradlew check, needs: [swift], timeout: 10m, dir: src-kmp, pool: gradle, platforms: [linux], retries: 1}
        - {name: swift, sh: swift test, inputs: ["src-ios/**"], covers: [src-ios], requires: [swift], tags: [ios, fast]}
      """
    let manifest = try ManifestLoader.parse(try YAMLParser.parse(text, file: "lanes/manifest.yaml"), path: "lanes/manifest.yaml", builtins: [:])
    let tree = TreeManifest(manifest: manifest, parity: nil, isDerived: false)
    let modules = [Module(path: "src-ios", foundBy: ["Package.swift"], coveredBy: ["swift"]), Module(path: "tools/x", foundBy: ["Package.swift"], coveredBy: [])]
    let report = LanesJSON(tree, modules: modules)
    let lanes: [[String: Any]] = manifest.graph.runOrder().map { index in
      let lane = manifest.lanes[index]
      var entry: [String: Any] = [
        "name": lane.name, "kind": lane.isBuiltin ? "builtin" : "sh", "command": lane.commandText, "needs": lane.needs,
        "inputs": lane.inputs, "covers": lane.covers, "requires": lane.requires, "retries": lane.retries, "tags": lane.tags,
        "reports": lane.reports, "outputs": lane.outputs,
      ]
      entry["timeoutSeconds"] = lane.timeout ?? NSNull()
      entry["dir"] = lane.dir ?? NSNull()
      entry["pool"] = lane.pool ?? NSNull()
      entry["platforms"] = lane.platforms.map { $0.map(\.rawValue) } ?? NSNull()
      return entry
    }
    let legacy: [String: Any] = [
      "manifest": "lanes/manifest.yaml", "derived": false, "lanes": lanes,
      "modules": modules.map { ["path": $0.path, "foundBy": $0.foundBy, "coveredBy": $0.coveredBy] }, "outsideManifest": ["tools/x"],
    ]
    #expect(ReportJSON.text(report) == LegacyJSON.text(legacy))
    #expect(report.lanes.map(\.name) == ["swift", "kotlin"])
    #expect(report.lanes.map(\.tags) == [["ios", "fast"], []])
    #expect(report.outside.map(\.path) == ["tools/x"])
    #expect(try LegacyJSON.roundTrips(report))
  }

  /// The text of `duet lanes` is read from the same value: a row per lane in
  /// run order under the header, and a row per module no lane covers
  /// (issue 54, item 1: the command reads no lane's fields one by one).
  @Test func tableRowsForTheText() throws {
    let text = """
      version: 1
      lanes:
        - {name: kotlin, sh: ./gradlew check, needs: [swift, lint], timeout: 10m, retries: 1}
        - {name: swift, sh: swift test}
        - {name: lint, sh: ./lint, timeout: 90}
      """
    let manifest = try ManifestLoader.parse(try YAMLParser.parse(text, file: "lanes/manifest.yaml"), path: "lanes/manifest.yaml", builtins: [:])
    let modules = [Module(path: "src-ios", foundBy: ["Package.swift"], coveredBy: ["swift"]),
                   Module(path: "tools/x", foundBy: ["Package.swift", "build.gradle.kts"], coveredBy: [])]
    let report = LanesJSON(TreeManifest(manifest: manifest, parity: nil, isDerived: false), modules: modules)
    #expect(LanesJSON.laneHeader.map(\.text) == ["lane", "step", "needs", "timeout", "retries", "command"])
    #expect(report.laneRows.map { $0.map(\.text) } == [
      ["swift", "sh", "-", "default", "0", "swift test"],
      ["lint", "sh", "-", "90s", "0", "./lint"],
      ["kotlin", "sh", "swift,lint", "10m", "1", "./gradlew check"],
    ])
    #expect(report.outsideRows.map { $0.map(\.text) } == [["tools/x", "Package.swift, build.gradle.kts"]])
  }

  /// Issue 40: a script sees each lane's `reports:` and `outputs:` as declared,
  /// and empty lists for a lane that declares neither.
  @Test func reportsAndOutputs() throws {
    let text = """
      version: 1
      lanes:
        - {name: unit, sh: ./gradlew test, reports: ["build/test-results/**/*.xml"], outputs: [build/libs]}
        - {name: lint, sh: ./lint}
      """
    let manifest = try ManifestLoader.parse(try YAMLParser.parse(text, file: "lanes/manifest.yaml"), path: "lanes/manifest.yaml", builtins: [:])
    let report = LanesJSON(TreeManifest(manifest: manifest, parity: nil, isDerived: false), modules: [])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(ReportJSON.text(report).utf8)) as? [String: Any])
    let lanes = try #require(json["lanes"] as? [[String: Any]])
    let byName = Dictionary(uniqueKeysWithValues: lanes.map { ($0["name"] as? String ?? "", $0) })
    #expect(byName["unit"]?["reports"] as? [String] == ["build/test-results/**/*.xml"])
    #expect(byName["unit"]?["outputs"] as? [String] == ["build/libs"])
    #expect(byName["lint"]?["reports"] as? [String] == [])
    #expect(byName["lint"]?["outputs"] as? [String] == [])
  }
}
