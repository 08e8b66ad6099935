import Foundation
import Testing
@testable import DuetFuzzSupport
@testable import DuetApp
@testable import DuetCI
@testable import DuetMocks
@testable import DuetTokens
@testable import DuetRun
@testable import DuetModel
@testable import DuetProcess
@testable import DuetSupport

/// The fixtures the mutator starts from, read from the repository.
enum FuzzCorpus {
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func files(_ paths: [String], prefix: Int = 16 * 1024) -> [[UInt8]] {
    paths.compactMap { path in
      (try? Data(contentsOf: repository.appendingPathComponent(path))).map { Array($0.prefix(prefix)) }
    }
  }

  static func matching(_ folder: String, suffix: String) -> [String] {
    let base = repository.appendingPathComponent(folder)
    let found = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
    return found.filter { $0.hasSuffix(suffix) }.sorted().map { folder + "/" + $0 }
  }

  static let everyKey: [UInt8] = Array("""
    version: 1
    modules: [src/*, "lib/**"]
    mocks:
      - output: Tests/Mocks/M.swift
        sources: [src]
        include: ["*.kt"]
        generator: ./gen.sh
        bundle: "1.0"
    lanes:
      - name: tokens
        run: design-tokens --check
        inputs: [parity/design-tokens.yaml]
      - name: build
        sh: echo build
        needs: [tokens]
        inputs: ["src/**", out, pipe]
        covers: [src/a]
        timeout: 10m
        retries: 2
        env: {A: b, C: "d"}
        dir: src
        requires: [sh]
    """.utf8)

  static let manifests = [everyKey] + files(["lanes/manifest.yaml", "Examples/Foyer/lanes/manifest.yaml"])
  static let tokenConfigs = files(matching("Tests/Fixtures/design-tokens", suffix: ".yaml")
    + ["Examples/Foyer/parity/design-tokens.yaml", "Examples/Atrium/parity/design-tokens.yaml"])
  static let dtcgFiles = files(matching("Tests/Fixtures/dtcg", suffix: ".json"))
  static let parityManifests = files(["Examples/Atrium/parity/manifest.yaml"])
  static let fingerprintBlocks = files(matching("Tests/Fixtures/mocks", suffix: ".swift")
    + ["Examples/Foyer/src-ios/Libraries/FoyerKit/Tests/Mocks/HomeShellMocks.swift",
       "Examples/Atrium/src-ios/Packages/AtriumKit/Tests/Mocks/HomeFeatureMocks.swift"], prefix: 4096)
}

/// How one case ended. Anything else (a trap, a hang) ends the test process,
/// which is the failure this suite exists to catch.
enum FuzzOutcome { case value, typedError }

/// A scratch tree the in-process targets may read (never write): a few files, a
/// FIFO and links out of it to a sentinel folder that must stay as it was.
final class FuzzScratch: @unchecked Sendable {
  let base: URL
  let root: URL
  let sentinel: URL

  init() throws {
    base = FileManager.default.temporaryDirectory.appendingPathComponent("duet-fuzz-\(UUID().uuidString)").resolvingSymlinksInPath()
    root = base.appendingPathComponent("tree")
    sentinel = base.appendingPathComponent("sentinel")
    let fm = FileManager.default
    for folder in [root.appendingPathComponent("src/a"), root.appendingPathComponent("parity"), root.appendingPathComponent("ios/Generated"), sentinel.appendingPathComponent("logs/x")] {
      try fm.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    try Data("a".utf8).write(to: root.appendingPathComponent("src/a/a.swift"))
    try Data("secret".utf8).write(to: sentinel.appendingPathComponent("secret.txt"))
    try Data("x".utf8).write(to: sentinel.appendingPathComponent("logs/x/x.log"))
    try fm.createSymbolicLink(atPath: root.appendingPathComponent("out").path, withDestinationPath: sentinel.path)
    try fm.createSymbolicLink(atPath: root.appendingPathComponent("src/zero").path, withDestinationPath: "/dev/zero")
    try fm.createSymbolicLink(atPath: root.appendingPathComponent("ios/Generated/SemanticColor.swift").path, withDestinationPath: sentinel.appendingPathComponent("secret.txt").path)
    _ = mkfifo(root.appendingPathComponent("pipe").path, 0o644)
    _ = mkfifo(root.appendingPathComponent("ios/Generated/SemanticGradient.swift").path, 0o644)
  }

  deinit { try? FileManager.default.removeItem(at: base) }

  /// Every path under the base with its size and modification time.
  func snapshot() -> [String] {
    let paths = (FileManager.default.subpaths(atPath: base.path) ?? []).sorted()
    return paths.map { path in
      var info = stat()
      lstat(base.appendingPathComponent(path).path, &info)
      return "\(path) \(info.st_mode) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }
  }
}

/// The in-process targets: each parses its input the way duet reads that kind
/// of file and, when the input is accepted, goes on to what duet does next.
enum FuzzTargets {
  static func manifest(_ bytes: [UInt8], scratch: FuzzScratch) -> FuzzOutcome {
    let node: YAMLNode
    do { node = try YAMLParser.parse(Data(bytes), file: "lanes/manifest.yaml") } catch { return .typedError }
    let manifest: Manifest
    do { manifest = try ManifestLoader.parse(node, path: "lanes/manifest.yaml", builtins: BuiltinSet.standard.vocabulary) } catch { return .typedError }
    let all = Set(manifest.lanes.indices)
    _ = manifest.graph.runOrder()
    _ = Sharding.lanes(of: .init(index: 1, count: .max), names: manifest.lanes.map(\.name), weights: [])
    _ = InputFingerprint.compute(manifest: manifest, builtins: .standard, root: scratch.root, selected: all, git: GitStateOnce { nil }, duetVersion: "fuzz", environment: [:])
    _ = try? GitHubWorkflow.render(manifest, options: .init(duetVersion: "fuzz"))
    var options = VerifyOptions()
    options.jobs = 1
    do {
      let plan = try VerifyPlan(root: scratch.root, manifest: manifest, builtins: .standard, options: options, environment: ["PATH": "/usr/bin:/bin"])
      for index in plan.startOrder.prefix(3) { _ = plan.request(index: index, attempt: 1) }
    } catch { return .typedError }
    return .value
  }

  static func tokenConfig(_ bytes: [UInt8], scratch: FuzzScratch) -> FuzzOutcome {
    let node: YAMLNode
    do { node = try YAMLParser.parse(Data(bytes), file: "parity/design-tokens.yaml") } catch { return .typedError }
    let config: TokenConfig
    do { config = try TokenConfigLoader.parse(node, path: "parity/design-tokens.yaml", root: scratch.root) } catch { return .typedError }
    let plan = TokenPlan(config)
    _ = TokenCheck.run(plan, root: scratch.root, configPath: "parity/design-tokens.yaml")
    return .value
  }

  static func dtcg(_ bytes: [UInt8], scratch: FuzzScratch) -> FuzzOutcome {
    let document: JSONDocument
    do { document = try JSONDocument.parse(Data(bytes), file: "parity/x.tokens.json") } catch { return .typedError }
    var reader = DTCGReader(light: document, dark: nil, needsTextStyle: true)
    _ = reader.read()
    return reader.diagnostics.isEmpty ? .value : .typedError
  }

  static func parityManifest(_ bytes: [UInt8], scratch: FuzzScratch) -> FuzzOutcome {
    let node: YAMLNode
    do { node = try YAMLParser.parse(Data(bytes), file: "parity/manifest.yaml") } catch { return .typedError }
    do { _ = try ParityManifestLoader.parse(node, path: "parity/manifest.yaml") } catch { return .typedError }
    return .value
  }

  static func fingerprintBlock(_ bytes: [UInt8], scratch: FuzzScratch) -> FuzzOutcome {
    switch FingerprintParser.parse(bytes) {
    case .block, .none: return .value
    case .malformed: return .typedError
    }
  }
}

@Suite("Fuzz: seeded mutations of every kind of file duet reads, in-process")
struct FuzzTests {
  /// Cases per kind; `DUET_FUZZ_CASES` raises it for a longer local run.
  static let casesPerKind = Int(ProcessInfo.processInfo.environment["DUET_FUZZ_CASES"] ?? "") ?? 1_300
  static let seed = UInt64(ProcessInfo.processInfo.environment["DUET_FUZZ_SEED"] ?? "") ?? 16

  typealias Target = @Sendable ([UInt8], FuzzScratch) -> FuzzOutcome

  /// Runs `casesPerKind` mutated cases of one kind; returns (values, typed errors).
  static func run(kind: UInt64, corpus: [[UInt8]], target: Target, scratch: FuzzScratch) -> (Int, Int) {
    precondition(!corpus.isEmpty, "no fixtures for fuzz kind \(kind)")
    var mutator = SeededMutator(seed: seed &* 0x1000_0000_01B3 ^ (kind << 40))
    var values = 0, errors = 0
    for number in 0..<casesPerKind {
      // The unmutated fixtures first: they must be accepted as they are.
      let input = number < corpus.count ? corpus[number] : mutator.mutate(corpus[number % corpus.count])
      switch target(input, scratch) {
      case .value: values += 1
      case .typedError: errors += 1
      }
    }
    return (values, errors)
  }

  /// Manifests, token configs, DTCG files, parity manifests and fingerprint blocks, 1,300 mutated cases each
  /// (6,500 in all): every case returns a value or a typed error, and nothing outside the scratch tree changes.
  @Test func everyKindSurvivesMutation() throws {
    let scratch = try FuzzScratch()
    let before = scratch.snapshot()
    let kinds: [(String, [[UInt8]], Target)] = [
      ("manifest", FuzzCorpus.manifests, FuzzTargets.manifest),
      ("token config", FuzzCorpus.tokenConfigs, FuzzTargets.tokenConfig),
      ("DTCG file", FuzzCorpus.dtcgFiles, FuzzTargets.dtcg),
      ("parity manifest", FuzzCorpus.parityManifests, FuzzTargets.parityManifest),
      ("fingerprint block", FuzzCorpus.fingerprintBlocks, FuzzTargets.fingerprintBlock),
    ]
    var total = 0
    for (index, (name, corpus, target)) in kinds.enumerated() {
      let (values, errors) = FuzzTests.run(kind: UInt64(index + 1), corpus: corpus, target: target, scratch: scratch)
      total += values + errors
      // The mutator must reach both sides: a run where every case fails parsing tests nothing past it.
      #expect(values > 0, "\(name): no mutated case was accepted")
      #expect(errors > 0, "\(name): no mutated case was refused")
    }
    #expect(total == FuzzTests.casesPerKind * kinds.count)
    #expect(scratch.snapshot() == before)
  }

  /// The corpus's own fixtures are accepted unmutated, so the mutations start from valid input.
  @Test func fixturesAreValid() throws {
    let scratch = try FuzzScratch()
    for bytes in FuzzCorpus.tokenConfigs { #expect(FuzzTargets.tokenConfig(bytes, scratch: scratch) == .value) }
    for bytes in FuzzCorpus.parityManifests { #expect(FuzzTargets.parityManifest(bytes, scratch: scratch) == .value) }
    for bytes in FuzzCorpus.fingerprintBlocks { #expect(FuzzTargets.fingerprintBlock(bytes, scratch: scratch) == .value) }
    #expect(FuzzTargets.manifest(FuzzCorpus.everyKey, scratch: scratch) == .value)
  }

  /// The mutator is deterministic: the same seed gives the same cases.
  @Test func mutatorIsSeeded() {
    var a = SeededMutator(seed: 7), b = SeededMutator(seed: 7)
    let input = Array("version: 1\nlanes: []\n".utf8)
    for _ in 0..<50 { #expect(a.mutate(input) == b.mutate(input)) }
  }
}
