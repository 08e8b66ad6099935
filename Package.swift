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
    // SHA-256 on Linux; Apple platforms use CryptoKit instead (see Sources/DuetSupport/Support/Digest.swift).
    .systemLibrary(
      name: "CCrypto",
      pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
    ),
    // HTTP for the remote cache (the Bazel HTTP protocol): libcurl, as curl
    // speaks it. On Linux it is loaded when first used (Sources/CCurl/loader.c),
    // not linked, so only its headers are needed to build (libcurl4-openssl-dev);
    // on macOS it is the system's, linked.
    .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl", .when(platforms: [.macOS]))]),
    // C wrappers for process calls Swift cannot see without _GNU_SOURCE.
    .target(name: "CProcessShim"),
    // The layers, each depending only on those above it in this list; the
    // compiler sees the edges, and LayerTests fails on an import that goes up.
    // Support: YAML reading, diagnostics, globs, digests, atomic files, Locked.
    .target(
      name: "DuetSupport",
      dependencies: [
        "CYAML",
        .target(name: "CCrypto", condition: .when(platforms: [.linux])),
      ]
    ),
    // Output: the shapes of what duet prints: aligned tables, hanging lists,
    // and the one `--json` report format.
    .target(name: "DuetOutput", dependencies: ["DuetSupport"]),
    // Process: the one way duet runs children (spawn, the event loop and its
    // poller, captures, git by argv, the stop latch a signal trips).
    .target(name: "DuetProcess", dependencies: ["DuetSupport", "CProcessShim"]),
    // Sandbox: what a sandboxed lane sees and may write (bubblewrap's mounts and
    // arguments, sandbox-exec's profile), the scratch folders, what it wrote and
    // what its trace says it read; values and files, no run (issue 56).
    .target(name: "DuetSandbox", dependencies: ["DuetSupport"]),
    // Cache: the content-addressed store under .duet/cache, the action entries
    // (REAPI ActionResult), and the remote cache on the Bazel HTTP protocol.
    .target(name: "DuetCache", dependencies: ["DuetSupport", "CCurl"]),
    // Model: the manifest, the lane graph, the parity manifest, what a built-in
    // is, and the Gradle and SwiftPM build files read as tokens.
    .target(name: "DuetModel", dependencies: ["DuetOutput", "DuetSupport"]),
    // Test reports: the JUnit XML a lane writes, read without DTDs within
    // bounds, and the cases of one attempt's reports (issue 40).
    .target(name: "DuetTestReports", dependencies: ["DuetSupport"]),
    // History: the SQLite store of runs, steps and test cases, its migrations
    // and merge, the rows, and the flaky, stats and report models read from it.
    .target(name: "DuetHistory", dependencies: ["DuetModel", "DuetTestReports", "DuetOutput", "DuetSupport", "CSQLite"]),
    // Run: plan, scheduler, lane runner, fingerprints, cache decisions, the
    // verdict, and the sandbox. It is handed the built-ins as a value and knows no feature.
    .target(name: "DuetRun", dependencies: ["DuetHistory", "DuetModel", "DuetTestReports", "DuetSandbox", "DuetCache", "DuetProcess", "DuetSupport"]),
    // Pages: the HTML pages of a run and of the history (timings, report, trace).
    .target(name: "DuetPages", dependencies: ["DuetHistory", "DuetOutput", "DuetSupport"]),
    // Run reports: the verdict as the summary table, --json, the dry run,
    // JUnit XML and GitHub's annotations and step summary.
    .target(name: "DuetRunReports", dependencies: ["DuetRun", "DuetHistory", "DuetModel", "DuetTestReports", "DuetOutput", "DuetSupport"]),
    // The features: design tokens (with contrast and theme tests) and mocks.
    .target(name: "DuetTokens", dependencies: ["DuetModel", "DuetOutput", "DuetSupport"]),
    .target(name: "DuetMocks", dependencies: ["DuetModel", "DuetProcess", "DuetOutput", "DuetSupport"]),
    // Adopt: the tree survey (Gradle builds, Swift packages, a tree's own CI),
    // the adoption plan, init's manifest and the lanes derived from the plan.
    .target(name: "DuetAdopt", dependencies: ["DuetTokens", "DuetModel", "DuetSupport"]),
    // Hooks: the git pre-push hook, the pushed commits and their checkout.
    .target(name: "DuetHooks", dependencies: ["DuetHistory", "DuetModel", "DuetProcess", "DuetSupport"]),
    // Doctor: what a tree's lanes need on this machine, and the report.
    .target(name: "DuetDoctor", dependencies: ["DuetAdopt", "DuetHistory", "DuetTestReports", "DuetTokens", "DuetModel", "DuetProcess", "DuetOutput", "DuetSupport"]),
    // CI: the GitHub Actions and GitLab CI files `duet workflow` writes.
    .target(name: "DuetCI", dependencies: ["DuetAdopt", "DuetModel", "DuetSupport"]),
    // The command line: a command's spec (options, help, exit codes, examples),
    // the parse of its words, and the man page and shell completions made from
    // the specs. Below DuetApp, so it builds beside the features (issue 54, item 8).
    .target(name: "DuetCommandLine", dependencies: ["DuetSupport"]),
    // The one place that assembles the layers: registers the built-ins, finds the
    // tree, and exposes every command as a call.
    .target(
      name: "DuetApp",
      dependencies: ["DuetCommandLine", "DuetCI", "DuetDoctor", "DuetHooks", "DuetAdopt", "DuetMocks", "DuetTokens", "DuetRunReports", "DuetRun", "DuetPages", "DuetHistory", "DuetTestReports", "DuetModel", "DuetSandbox", "DuetCache", "DuetProcess", "DuetOutput", "DuetSupport"]
    ),
    // The executable: `main` alone, and the commit a release build stamps into
    // it; every command, its arguments and its printing are DuetApp's (LayerTests).
    .executableTarget(name: "duet", dependencies: ["DuetApp"]),
    // The seeded mutator shared by the in-process and the end-to-end fuzz tests.
    .target(name: "DuetFuzzSupport", path: "Tests/DuetFuzzSupport"),
    .testTarget(name: "DuetKitTests", dependencies: ["DuetApp", "DuetCI", "DuetDoctor", "DuetHooks", "DuetAdopt", "DuetMocks", "DuetTokens", "DuetRunReports", "DuetRun", "DuetPages", "DuetHistory", "DuetModel", "DuetTestReports", "DuetSandbox", "DuetCache", "DuetProcess", "DuetOutput", "DuetSupport", "DuetFuzzSupport"]),
    .testTarget(name: "DuetCLITests", dependencies: ["duet", "DuetCommandLine", "DuetApp", "DuetCI", "DuetDoctor", "DuetHooks", "DuetAdopt", "DuetMocks", "DuetTokens", "DuetRunReports", "DuetRun", "DuetPages", "DuetHistory", "DuetModel", "DuetTestReports", "DuetSandbox", "DuetCache", "DuetProcess", "DuetOutput", "DuetSupport", "DuetFuzzSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
