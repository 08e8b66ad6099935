import Foundation
import DuetModel
import DuetSupport

/// The type names that are also the generated files' names.
public enum TokenFileNames {
  public static let color = "SemanticColor"
  public static let font = "SemanticFont"
  public static let gradient = "SemanticGradient"
}

/// One file the generator owns: its path relative to the tree root and, when
/// the config declares it, the text it must hold.
public struct GeneratedFile: Sendable, Equatable {
  public var path: String
  public var contents: String
  public init(path: String, contents: String) {
    self.path = path
    self.contents = contents
  }
}

/// What a config generates: the files it declares, in the order the command
/// lists them, and the files a target would own that the config no longer
/// declares (`SemanticGradient` once the last gradient is gone).
public struct TokenPlan: Sendable, Equatable {
  public var files: [GeneratedFile]
  /// Paths a target owns but this config does not generate (`SemanticGradient`
  /// without gradients, `Spacing` without a scale, another style's files);
  /// `--check` reports them `orphaned:` when they exist with duet's banner, and
  /// a write removes them. A file without the banner is a team's own.
  public var ownedButUndeclared: [String]

  /// Runs every emitter; pure, so `--check` and the writer see the same bytes.
  /// The files are independent, so they are emitted in parallel; each one's
  /// text depends on the config alone, so the result is the same every time.
  public init(_ config: TokenConfig) {
    var jobs = EmitJobs()
    if let swift = config.swift { jobs.addSwift(config, target: swift) }
    if let kotlin = config.kotlin { jobs.addKotlin(config, target: kotlin) }
    self.files = zip(jobs.jobs, jobs.emitAll()).map { GeneratedFile(path: $0.path, contents: $1) }
    self.ownedButUndeclared = jobs.owned
    self.generatedFilePatterns = jobs.generatedFilePatterns
  }

  /// Every source file in a target's output folder (`Generated/*.swift`,
  /// `Generated/*.kt`): one there that the config does not generate and that
  /// opens with duet's banner is left from a theme since removed, a palette
  /// renamed or a style switched.
  public var generatedFilePatterns: [String]

  /// `ownedButUndeclared` that exist under `root` with duet's banner (or the
  /// engine's), plus every other file with duet's banner in an output folder
  /// that the config no longer generates. Any other file is never claimed.
  public func undeclaredFiles(in root: URL) -> [String] {
    let banner = Data(generatedBannerStart.utf8)
    /// duet's banner, or (with `orEngine`) the banner of the Duet toolchain's
    /// engine. Only a regular file inside the tree is opened (PathGuard): a FIFO
    /// here would block `--check`, a link would read outside the tree.
    func opensWithBanner(_ path: String, orEngine: Bool = false) -> Bool {
      guard let url = try? PathGuard.regularFile(path, in: root),
            let fd = try? PathGuard.openRegularFile(atAbsolute: url.path, displayPath: path) else { return false }
      let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
      let head = (try? handle.read(upToCount: EngineBanner.headLength)) ?? Data()
      return head.starts(with: banner) || (orEngine && EngineBanner.recognizes(String(decoding: head, as: UTF8.self)))
    }
    // A file the engine wrote is claimed only under a name a target owns
    // (`SemanticGradient` once gradients are gone): another engine file in
    // the folder may be one duet does not know, and is never removed.
    var result = ownedButUndeclared.filter { opensWithBanner($0, orEngine: true) }
    let declared = Set(files.map(\.path))
    for pattern in generatedFilePatterns {
      let folder = (pattern as NSString).deletingLastPathComponent
      let name = (pattern as NSString).lastPathComponent
      let parts = name.split(separator: "*", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2 else { continue }
      let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { continue }
      for entry in entries.sorted() where entry.hasPrefix(parts[0]) && entry.hasSuffix(parts[1]) && entry.count > parts[0].count + parts[1].count {
        let path = join(folder, entry)
        if !declared.contains(path) && !result.contains(path) && opensWithBanner(path) { result.append(path) }
      }
    }
    return result
  }
}

/// The files a config declares, each with the emitter that writes it, and the
/// paths a target would own that it does not declare.
private struct EmitJobs {
  var jobs: [(path: String, rank: Int, emit: @Sendable () -> String)] = []
  var owned: [String] = []
  var generatedFilePatterns: [String] = []

  /// Declares `path` when `declared`; else it is a file the target would own.
  /// `rank` orders the work, not the files: 0 for a palette (every token's
  /// value), 1 for a colour vocabulary, 2 for the rest.
  mutating func file(_ path: String, when declared: Bool = true, rank: Int = 2, _ emit: @escaping @Sendable () -> String) {
    if declared { jobs.append((path, rank, emit)) } else { owned.append(path) }
  }

  mutating func addSwift(_ config: TokenConfig, target swift: SwiftTarget) {
    let folder = swift.output
    let engine = swift.style == .engine
    file(join(folder, "\(TokenFileNames.color).swift"), when: engine, rank: 1) { SwiftEmitter.colorVocabulary(config, target: swift) }
    file(join(folder, "\(TokenFileNames.font).swift"), when: engine) { SwiftEmitter.fontVocabulary(config, target: swift) }
    file(join(folder, "\(TokenFileNames.gradient).swift"), when: engine && !config.gradients.isEmpty) { SwiftEmitter.gradientVocabulary(config, target: swift) }
    if engine {
      file(join(folder, "\(swift.theme)Palette.swift"), rank: 0) { SwiftEmitter.palette(config, target: swift) }
      for theme in config.mappedThemes {
        file(join(folder, ThemeMappingEmitter.swiftFileName(theme))) { ThemeMappingEmitter.swift(config, theme: theme, target: swift) }
      }
    }
    generatedFilePatterns.append(join(folder, "*.swift"))
    file(join(folder, SwiftUIEmitter.colorFileName), when: !engine) { SwiftUIEmitter.colors(config) }
    file(join(folder, SwiftUIEmitter.fontFileName), when: !engine && !config.fonts.isEmpty) { SwiftUIEmitter.fonts(config) }
    for scale in ScaleEmitter.Scale.allCases {
      file(join(folder, "\(scale.typeName).swift"), when: !scale.tokens(config).isEmpty) { ScaleEmitter.swift(config, scale: scale) }
    }
  }

  mutating func addKotlin(_ config: TokenConfig, target kotlin: KotlinTarget) {
    let folder = kotlin.output
    let engine = kotlin.style == .engine
    file(join(folder, "\(TokenFileNames.color).kt"), when: engine, rank: 1) { KotlinEmitter.colorVocabulary(config, target: kotlin) }
    file(join(folder, "\(TokenFileNames.font).kt"), when: engine) { KotlinEmitter.fontVocabulary(config, target: kotlin) }
    file(join(folder, "\(TokenFileNames.gradient).kt"), when: engine && !config.gradients.isEmpty) { KotlinEmitter.gradientVocabulary(config, target: kotlin) }
    if engine {
      file(join(folder, "\(kotlin.palette).kt"), rank: 0) { KotlinEmitter.palette(config, target: kotlin) }
      for theme in config.mappedThemes {
        file(join(folder, ThemeMappingEmitter.kotlinFileName(theme))) { ThemeMappingEmitter.kotlin(config, theme: theme, target: kotlin) }
      }
    }
    generatedFilePatterns.append(join(folder, "*.kt"))
    file(join(folder, ComposeEmitter.colorFileName), when: !engine) { ComposeEmitter.colors(config, target: kotlin) }
    file(join(folder, ComposeEmitter.fontFileName), when: !engine && !config.fonts.isEmpty) { ComposeEmitter.fonts(config, target: kotlin) }
    for scale in ScaleEmitter.Scale.allCases {
      file(join(folder, "\(scale.typeName).kt"), when: !scale.tokens(config).isEmpty) { ScaleEmitter.kotlin(config, scale: scale, target: kotlin) }
    }
  }

  /// Every job's text, in the jobs' order. The files are independent, so they
  /// are emitted in parallel; the largest start first, so that no thread is left
  /// with one alone at the end while the other idles (threads take indices in order).
  func emitAll() -> [String] {
    let results = Locked([String](repeating: "", count: jobs.count))
    let emitters = jobs.map(\.emit)
    let order = jobs.indices.sorted { (jobs[$0].rank, $0) < (jobs[$1].rank, $1) }
    DispatchQueue.concurrentPerform(iterations: emitters.count) { step in
      let index = order[step]
      let text = emitters[index]()
      results.withLock { $0[index] = text }
    }
    return results.withLock { $0 }
  }
}

private func join(_ folder: String, _ name: String) -> String {
  folder.isEmpty ? name : folder + "/" + name
}
