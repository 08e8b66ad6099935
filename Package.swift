// swift-tools-version:6.0
import PackageDescription

/// duet: one verify driver for a two-platform (SwiftUI + Compose) repository.
/// The C libraries come from the system (Debian `-dev` packages or Homebrew);
/// no Swift package outside the toolchain is needed.
let package = Package(
  name: "duet",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "duet", targets: ["duet"]),
    .library(name: "DuetKit", targets: ["DuetKit"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]
    ),
    .systemLibrary(
      name: "CYAML",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    // SHA-256 on Linux; Apple platforms use CryptoKit instead (see Support/Digest.swift).
    .systemLibrary(
      name: "CCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
    ),
    // C wrappers for process calls Swift cannot see without _GNU_SOURCE.
    .target(name: "CProcessShim"),
    .target(
      name: "DuetKit",
      dependencies: [
        "CProcessShim",
        "CSQLite",
        "CYAML",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ]
    ),
    .executableTarget(name: "duet", dependencies: ["DuetKit"]),
    // The seeded mutator shared by the in-process and the end-to-end fuzz tests.
    .target(name: "DuetFuzzSupport", path: "Tests/DuetFuzzSupport"),
    .testTarget(name: "DuetKitTests", dependencies: ["DuetKit", "DuetFuzzSupport"]),
    .testTarget(name: "DuetCLITests", dependencies: ["duet", "DuetKit", "DuetFuzzSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
