// swift-tools-version:5.9
// FoyerKit: the iOS side of the Foyer example. The shells are plain Swift that
// builds on macOS and Linux; the Theming target (generated from
// parity/design-tokens.yaml) is iOS-only and is compiled by the app build.
import PackageDescription

let package = Package(
  name: "FoyerKit",
  products: [
    .library(name: "UpgradeShell", targets: ["UpgradeShell"]),
  ],
  targets: [
    .target(name: "UpgradeShell"),
  ]
)
