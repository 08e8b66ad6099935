import Foundation
import DuetSupport

/// The Apple part of an adoption plan: a lane per Swift package (its tests, or
/// a build when it has none) and per shared Xcode scheme.
extension AdoptionPlan {
  mutating func addSwiftPackageLanes(_ survey: TreeSurvey, xcframeworkLanes: XCFrameworkLanes, names: inout UniqueLaneNames) {
    let swiftHolders = GeneratedCodeReach.swift(survey.swiftPackages, generatedFolder: survey.tokenConfig?.swiftOutput)
    for package in survey.swiftPackages {
      let targets = package.testTargets
      findings.append((package.manifestFile, targets.isEmpty ? "Swift package without a test target" : "Swift package, test target(s): \(targets.joined(separator: ", "))"))
      let leaf = package.path == "." ? "package" : String(package.path.split(separator: "/").last ?? "package")
      // Its tests' JUnit XML goes under the package's .build (SwiftPM writes a second
      // file, `-swift-testing` before `.xml`, for Swift Testing's cases).
      let xunit = (package.path == "." ? "" : package.path + "/") + ".build/duet-xunit.xml"
      var lane = PlannedLane(
        name: names.claim("swift-" + LaneNames.sanitized(leaf)),
        step: .shell(targets.isEmpty ? "swift build --package-path \(ShellWord.quoted(package.path))"
                     : "swift test --package-path \(ShellWord.quoted(package.path)) --xunit-output \(ShellWord.quoted(xunit))"),
        reason: targets.isEmpty
          ? "Swift package \(package.path) has no test target: built, so it still compiles"
          : "Swift package \(package.path) has test target(s) \(targets.joined(separator: ", "))")
      lane.covers = [package.path]
      lane.requires = ["swift"]
      if !targets.isEmpty { lane.reports = [String(xunit.dropLast(4)) + "*.xml"] }
      lane.inputs = DerivedInputs.swift(package, in: survey.swiftPackages)
      lane.reason += Self.featureNote(package.path, in: survey)
      if package.path == "." {
        lane.reason += "; as the root package it covers '.', and so every module below the root: one added later is not listed outside the manifest"
      }
      Self.orderAfterTokens(&lane, at: package.path, survey: survey, reach: swiftHolders)
      Self.orderAfterXCFrameworks(&lane, linkedBy: package, survey: survey, xcframeworkLanes: xcframeworkLanes)
      if let why = package.macOSOnlyReason {
        lane.platforms = [.macos]
        lane.reason += "; macOS only: \(why)"
      }
      lanes.append(lane)
    }
  }

  /// A binary target under a Gradle module's build/ is that module's
  /// XCFramework: the lanes that build it come first.
  static func orderAfterXCFrameworks(
    _ lane: inout PlannedLane, linkedBy package: SwiftPackage, survey: TreeSurvey, xcframeworkLanes: XCFrameworkLanes
  ) {
    for binary in package.binaryTargetPaths {
      guard let module = survey.gradleModules.first(where: { binary.hasPrefix($0.path + "/build/") }) else { continue }
      // Only a lane whose outputs hold the path builds it for this package (issue 52, item 8).
      let builders = (xcframeworkLanes[module.path] ?? []).filter { $0.outputs.contains(binary) }.map(\.lane)
      for builder in builders where !lane.needs.contains(builder) { lane.needs.append(builder) }
      if builders.isEmpty && module.xcframeworks.isEmpty {
        lane.reason += "; it links \(binary), under Gradle module \(module.project)'s build folder, which declares no XCFramework(...) duet could name"
      } else if builders.isEmpty {
        lane.reason += "; it links \(binary), which no lane writes (see the note outside the manifest)"
      } else {
        lane.reason += "; it links \(binary), which \(builders.joined(separator: ", ")) builds, so it runs after it"
      }
    }
  }

  mutating func addXcodeLanes(_ survey: TreeSurvey, names: inout UniqueLaneNames) {
    for project in survey.xcodeProjects {
      findings.append((project.path, "Xcode \(project.isWorkspace ? "workspace" : "project"), shared scheme(s): \(project.schemes.joined(separator: ", "))"))
      for scheme in project.schemes {
        var lane = PlannedLane(
          name: names.claim("xcode-" + LaneNames.sanitized(scheme)),
          step: .shell(project.testCommand(scheme: scheme)),
          reason: "shared scheme \(scheme) of \(project.path): tested on an iOS simulator; macOS only")
        lane.requires = ["xcodebuild"]
        lane.inputs = [DerivedInputs.joined(project.folder, "**")]
        lane.platforms = [.macos]
        if project.folder != "." { lane.covers = [project.folder] }
        lanes.append(lane)
      }
    }
  }

  /// An app XcodeGen describes gets the lane its committed project would get,
  /// with the project generated first.
  mutating func addXcodegenLanes(_ survey: TreeSurvey, names: inout UniqueLaneNames) {
    for spec in survey.xcodegenSpecs {
      findings.append((spec.path, "XcodeGen spec of project \(spec.projectName), no committed .xcodeproj"))
      var lane = PlannedLane(
        name: names.claim("xcode-" + LaneNames.sanitized(spec.scheme)),
        step: .shell(spec.testCommand),
        reason: "\(spec.path) describes Xcode project \(spec.projectName) (XcodeGen): generated, then scheme \(spec.scheme) tested on an iOS simulator; macOS only")
      lane.requires = ["xcodegen", "xcodebuild"]
      lane.inputs = [DerivedInputs.joined(spec.folder, "**")]
      lane.platforms = [.macos]
      lane.covers = [spec.folder]
      lanes.append(lane)
    }
  }
}
