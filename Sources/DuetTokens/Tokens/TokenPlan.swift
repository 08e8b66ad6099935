import Foundation
import DuetModel
import DuetSupport

/// The type names that are also the generated files' names.
enum TokenFileNames {
  static let color = "SemanticColor"
  static let font = "SemanticFont"
  static let gradient = "SemanticGradient"
}

/// One file the generator owns: its path relative to the tree root and, when
/// the config declares it, the text it must hold.
struct GeneratedFile: Sendable, Equatable {
  var path: String
  var contents: String
}

/// What a config generates: the files it declares, in the order the command
/// lists them, and the files a target would own that the config no longer
/// declares (`SemanticGradient` once the last gradient is gone).
struct TokenPlan: Sendable, Equatable {
  var files: [GeneratedFile]
  /// Paths a target owns but this config does not generate (`SemanticGradient`
  /// without gradients, `Spacing` without a scale, another style's files);
  /// `--check` reports them `orphaned:` when they exist with duet's banner, and
  /// a write removes them. A file without the banner is a team's own.
  var ownedButUndeclared: [String]

  /// Runs every emitter; pure, so `--check` and the writer see the same bytes.
  /// The files are independent, so they are emitted in parallel; each one's
  /// text depends on the config alone, so the result is the same every time.
  init(_ config: TokenConfig) {
    var jobs = EmitJobs()
    if let swift = config.swift { jobs.add(.swift(config, swift), config) }
    if let kotlin = config.kotlin { jobs.add(.kotlin(config, kotlin), config) }
    self.files = zip(jobs.jobs, jobs.emitAll()).map { GeneratedFile(path: $0.path, contents: $1) }
    self.ownedButUndeclared = jobs.owned
    self.generatedFilePatterns = jobs.generatedFilePatterns
  }

  /// Every source file in a target's output folder (`Generated/*.swift`,
  /// `Generated/*.kt`): one there that the config does not generate and that
  /// opens with duet's banner is left from a theme since removed, a palette
  /// renamed or a style switched.
  var generatedFilePatterns: [String]

  /// `ownedButUndeclared` that exist under `root` with duet's banner (or the
  /// engine's), plus every other file with duet's banner in an output folder
  /// that the config no longer generates. Any other file is never claimed.
  func undeclaredFiles(in root: URL) -> [String] {
    let banner = Data(generatedBannerStart.text.utf8)
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

  /// One target's files, in the order every target lists them: the engine
  /// style's vocabularies, palette and theme mappings, or the plain style's two
  /// files; then the scales. Which emitter writes each is the target's own.
  mutating func add(_ target: TargetFiles, _ config: TokenConfig) {
    let folder = target.folder
    let engine = target.engine
    let ext = target.fileExtension
    file(join(folder, "\(TokenFileNames.color).\(ext)"), when: engine, rank: 1, target.colorVocabulary)
    file(join(folder, "\(TokenFileNames.font).\(ext)"), when: engine, target.fontVocabulary)
    file(join(folder, "\(TokenFileNames.gradient).\(ext)"), when: engine && !config.gradients.isEmpty, target.gradientVocabulary)
    if engine {
      file(join(folder, "\(target.paletteName).\(ext)"), rank: 0, target.palette)
      for theme in config.mappedThemes {
        let mapping = target.mapping
        file(join(folder, target.mappingFileName(theme))) { mapping(theme) }
      }
    }
    generatedFilePatterns.append(join(folder, "*.\(ext)"))
    file(join(folder, target.plainColors.name), when: !engine, target.plainColors.emit)
    file(join(folder, target.plainFonts.name), when: !engine && !config.fonts.isEmpty, target.plainFonts.emit)
    for scale in ScaleEmitter.Scale.allCases {
      let emit = target.scale
      file(join(folder, "\(scale.typeName).\(ext)"), when: !scale.tokens(config).isEmpty) { emit(scale) }
    }
  }

  /// Every job's text, in the jobs' order. The files are independent, so they
  /// are emitted in parallel; the largest first, spread over the threads, so that
  /// no thread is left with one alone at the end while the other idles.
  func emitAll() -> [String] {
    let emitters = jobs.map(\.emit)
    let order = jobs.indices.sorted { (jobs[$0].rank, $0) < (jobs[$1].rank, $1) }
    let texts = order.parallelMap { emitters[$0]() }
    var results = [String](repeating: "", count: jobs.count)
    for (index, text) in zip(order, texts) { results[index] = text }
    return results
  }
}

/// What one target (Swift or Kotlin) generates, named and written by its own
/// emitters, so `EmitJobs.add` lists both targets' files in one order.
private struct TargetFiles: Sendable {
  typealias Emit = @Sendable () -> String
  var folder: String
  var engine: Bool
  var fileExtension: String
  var paletteName: String
  var colorVocabulary: Emit
  var fontVocabulary: Emit
  var gradientVocabulary: Emit
  var palette: Emit
  var mappingFileName: @Sendable (ThemeSpec) -> String
  var mapping: @Sendable (ThemeSpec) -> String
  var plainColors: (name: String, emit: Emit)
  var plainFonts: (name: String, emit: Emit)
  var scale: @Sendable (ScaleEmitter.Scale) -> String

  static func swift(_ config: TokenConfig, _ target: SwiftTarget) -> TargetFiles {
    TargetFiles(
      folder: target.output, engine: target.style == .engine, fileExtension: "swift", paletteName: "\(target.theme)Palette",
      colorVocabulary: { SwiftEmitter.colorVocabulary(config, target: target) },
      fontVocabulary: { SwiftEmitter.fontVocabulary(config, target: target) },
      gradientVocabulary: { SwiftEmitter.gradientVocabulary(config, target: target) },
      palette: { SwiftEmitter.palette(config, target: target) },
      mappingFileName: ThemeMappingEmitter.swiftFileName,
      mapping: { ThemeMappingEmitter.swift(config, theme: $0, target: target) },
      plainColors: (SwiftUIEmitter.colorFileName, { SwiftUIEmitter.colors(config) }),
      plainFonts: (SwiftUIEmitter.fontFileName, { SwiftUIEmitter.fonts(config) }),
      scale: { ScaleEmitter.swift(config, scale: $0) })
  }

  static func kotlin(_ config: TokenConfig, _ target: KotlinTarget) -> TargetFiles {
    TargetFiles(
      folder: target.output, engine: target.style == .engine, fileExtension: "kt", paletteName: target.palette,
      colorVocabulary: { KotlinEmitter.colorVocabulary(config, target: target) },
      fontVocabulary: { KotlinEmitter.fontVocabulary(config, target: target) },
      gradientVocabulary: { KotlinEmitter.gradientVocabulary(config, target: target) },
      palette: { KotlinEmitter.palette(config, target: target) },
      mappingFileName: ThemeMappingEmitter.kotlinFileName,
      mapping: { ThemeMappingEmitter.kotlin(config, theme: $0, target: target) },
      plainColors: (ComposeEmitter.colorFileName, { ComposeEmitter.colors(config, target: target) }),
      plainFonts: (ComposeEmitter.fontFileName, { ComposeEmitter.fonts(config, target: target) }),
      scale: { ScaleEmitter.kotlin(config, scale: $0, target: target) })
  }
}

private func join(_ folder: String, _ name: String) -> String {
  folder.isEmpty ? name : folder + "/" + name
}
