import Foundation
import DuetAdopt
import DuetModel
import DuetSupport

/// A Swift package that links an XCFramework by path (`.binaryTarget(path:)`)
/// gets it, in CI, only from a lane that lists the path in `outputs:`: those
/// are what the generated jobs hand on. A linked path no lane writes passes on
/// a laptop where someone built the framework by hand and fails on every CI
/// job, so doctor names it, as `duet init` does (issue 38, item 2).
enum XCFrameworkHandOffCheck {
  static func check(root: URL, manifest: Manifest, into report: inout DoctorReport) {
    let packages = ModuleDiscovery.buildFiles(root: root).packages.compactMap { SwiftPackage.read(manifestFile: $0, root: root) }
    for package in packages {
      let consumers = manifest.lanes.filter { lane in lane.covers.contains { ModuleDiscovery.covered(package.path, by: Glob($0)) } }
      guard !consumers.isEmpty else { continue }
      for path in package.binaryTargetPaths {
        check(path, linkedBy: package.path, consumers: consumers, manifest: manifest, into: &report)
      }
    }
  }

  static func check(_ path: String, linkedBy package: String, consumers: [Lane], manifest: Manifest, into report: inout DoctorReport) {
    let names = consumers.map(\.name).joined(separator: ", ")
    guard let producer = manifest.lanes.first(where: { lane in lane.outputs.contains { path == $0 || path.hasPrefix($0 + "/") } }) else {
      report.add("xcframework", "\(path): linked by \(package); no lane's outputs: write it")
      report.problem("\(path), which \(package) links (lane \(names)), is in no lane's outputs:, so CI cannot hand it to that lane; add a lane that builds it, with the path in its outputs:")
      return
    }
    report.add("xcframework", "\(path): linked by \(package), written by lane \(producer.name)")
    for consumer in consumers where !needs(consumer, producer.name, in: manifest) {
      report.problem("lane \(consumer.name) links \(path), which lane \(producer.name) writes, but does not need it: add \(producer.name) to its needs:, or CI runs it without the framework")
    }
  }

  /// Whether `lane` needs `name`, directly or through its needs.
  static func needs(_ lane: Lane, _ name: String, in manifest: Manifest) -> Bool {
    var seen = Set<String>(), stack = lane.needs
    while let next = stack.popLast() {
      if next == name { return true }
      guard seen.insert(next).inserted, let need = manifest.lanes.first(where: { $0.name == next }) else { continue }
      stack += need.needs
    }
    return false
  }
}
