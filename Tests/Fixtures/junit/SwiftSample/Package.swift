// swift-tools-version:6.0
import PackageDescription
let package = Package(name: "Sample", targets: [.target(name: "Sample"), .testTarget(name: "SampleTests", dependencies: ["Sample"])])
