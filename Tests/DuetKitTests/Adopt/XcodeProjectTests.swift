import Foundation
import Testing
@testable import DuetApp
@testable import DuetAdopt
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetSupport

/// Xcode projects and workspaces found by their shared schemes, each scheme an `xcodebuild test` lane.
@Suite("Xcode projects in adoption")
struct XcodeProjectTests {
  /// Shared schemes of a project and a workspace each get a macOS-only lane that requires xcodebuild;
  /// a project's own inner workspace and build folders are skipped, and so are projects without shared schemes.
  @Test func schemesBecomeLanes() throws {
    let tree = try TemporaryFolder()
    try tree.write("ios/App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", "<Scheme/>")
    try tree.write("ios/App.xcodeproj/project.xcworkspace/xcshareddata/xcschemes/Inner.xcscheme", "<Scheme/>")
    try tree.write("Foyer.xcworkspace/xcshareddata/xcschemes/Foyer UI.xcscheme", "<Scheme/>")
    try tree.write("Personal.xcodeproj/xcuserdata/me.xcuserdatad/xcschemes/Mine.xcscheme", "<Scheme/>")
    try tree.write("build/Old.xcodeproj/xcshareddata/xcschemes/Old.xcscheme", "<Scheme/>")
    let projects = XcodeProject.find(root: tree.url)
    #expect(projects == [XcodeProject(path: "Foyer.xcworkspace", schemes: ["Foyer UI"]), XcodeProject(path: "ios/App.xcodeproj", schemes: ["App"])])
    let plan = AdoptionPlan(TreeSurvey.survey(root: tree.url, parity: nil))
    let app = try #require(plan.lanes.first { $0.name == "xcode-App" })
    #expect(app.step == .shell("xcodebuild test -project ios/App.xcodeproj -scheme App -destination 'platform=iOS Simulator,name=iPhone 16'"))
    #expect(app.platforms == [.macos] && app.requires == ["xcodebuild"] && app.covers == ["ios"])
    let workspace = try #require(plan.lanes.first { $0.name == "xcode-Foyer-UI" })
    #expect(workspace.step == .shell("xcodebuild test -workspace Foyer.xcworkspace -scheme 'Foyer UI' -destination 'platform=iOS Simulator,name=iPhone 16'"))
    #expect(workspace.covers.isEmpty)
  }
}
