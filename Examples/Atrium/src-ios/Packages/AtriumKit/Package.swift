// swift-tools-version:5.9
// AtriumKit: the iOS side of the Atrium example. Theming holds the Swift that
// `duet design-tokens` generates (iOS-only); HomeFeature is plain Swift.
import PackageDescription

let package = Package(
  name: "AtriumKit",
  targets: [
    .target(name: "Theming"),
    .target(name: "HomeFeature"),
    .testTarget(name: "HomeFeatureTests", dependencies: ["HomeFeature"]),
  ]
)
