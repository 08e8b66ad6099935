import Foundation

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
  /// Paths a target owns but this config does not generate; `--check` reports
  /// them `orphaned:` when they exist and a write removes them.
  public var ownedButUndeclared: [String]

  /// Runs every emitter; pure, so `--check` and the writer see the same bytes.
  /// The files are independent, so they are emitted in parallel; each one's
  /// text depends on the config alone, so the result is the same every time.
  public init(_ config: TokenConfig) {
    var jobs: [(path: String, emit: @Sendable () -> String)] = []
    var undeclared: [String] = []
    var themeFilePatterns: [String] = []
    let hasGradients = !config.gradients.isEmpty
    if let swift = config.swift {
      let folder = swift.output
      jobs.append((join(folder, "\(TokenFileNames.color).swift"), { SwiftEmitter.colorVocabulary(config, target: swift) }))
      jobs.append((join(folder, "\(TokenFileNames.font).swift"), { SwiftEmitter.fontVocabulary(config, target: swift) }))
      let gradientPath = join(folder, "\(TokenFileNames.gradient).swift")
      if hasGradients {
        jobs.append((gradientPath, { SwiftEmitter.gradientVocabulary(config, target: swift) }))
      } else {
        undeclared.append(gradientPath)
      }
      jobs.append((join(folder, "\(swift.theme)Palette.swift"), { SwiftEmitter.palette(config, target: swift) }))
      for theme in config.mappedThemes {
        jobs.append((join(folder, ThemeMappingEmitter.swiftFileName(theme)), { ThemeMappingEmitter.swift(config, theme: theme, target: swift) }))
      }
      themeFilePatterns.append(join(folder, "\(TokenFileNames.color)+*.swift"))
    }
    if let kotlin = config.kotlin {
      let folder = kotlin.output
      jobs.append((join(folder, "\(TokenFileNames.color).kt"), { KotlinEmitter.colorVocabulary(config, target: kotlin) }))
      jobs.append((join(folder, "\(TokenFileNames.font).kt"), { KotlinEmitter.fontVocabulary(config, target: kotlin) }))
      let gradientPath = join(folder, "\(TokenFileNames.gradient).kt")
      if hasGradients {
        jobs.append((gradientPath, { KotlinEmitter.gradientVocabulary(config, target: kotlin) }))
      } else {
        undeclared.append(gradientPath)
      }
      jobs.append((join(folder, "\(kotlin.palette).kt"), { KotlinEmitter.palette(config, target: kotlin) }))
      for theme in config.mappedThemes {
        jobs.append((join(folder, ThemeMappingEmitter.kotlinFileName(theme)), { ThemeMappingEmitter.kotlin(config, theme: theme, target: kotlin) }))
      }
      themeFilePatterns.append(join(folder, "*Source.kt"))
    }
    let slots = Slots(count: jobs.count)
    let emitters = jobs.map(\.emit)
    DispatchQueue.concurrentPerform(iterations: emitters.count) { index in slots.set(index, emitters[index]()) }
    self.files = zip(jobs, slots.values).map { GeneratedFile(path: $0.path, contents: $1) }
    self.ownedButUndeclared = undeclared
    self.themeFilePatterns = themeFilePatterns
  }

  /// Where a mapped theme's files go (`Generated/SemanticColor+*.swift`,
  /// `Generated/*Source.kt`): a file there that the config does not generate and
  /// that opens with duet's banner belongs to a theme since removed.
  public var themeFilePatterns: [String]

  /// `ownedButUndeclared` that exist under `root`, plus every generated theme
  /// mapping on disk that no theme of the config declares any more. A file
  /// without duet's banner is a team's own and is never claimed.
  public func undeclaredFiles(in root: URL) -> [String] {
    var result = ownedButUndeclared.filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }
    let declared = Set(files.map(\.path))
    let banner = Data(generatedBannerStart.utf8)
    for pattern in themeFilePatterns {
      let folder = (pattern as NSString).deletingLastPathComponent
      let name = (pattern as NSString).lastPathComponent
      let parts = name.split(separator: "*", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
      guard parts.count == 2 else { continue }
      let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { continue }
      for entry in entries.sorted() where entry.hasPrefix(parts[0]) && entry.hasSuffix(parts[1]) && entry.count > parts[0].count + parts[1].count {
        let path = join(folder, entry)
        guard !declared.contains(path), let handle = FileHandle(forReadingAtPath: url.appendingPathComponent(entry).path) else { continue }
        let head = (try? handle.read(upToCount: banner.count)) ?? Data()
        try? handle.close()
        if head == banner { result.append(path) }
      }
    }
    return result
  }
}

/// One result per emitter, filled from `concurrentPerform`'s threads.
private final class Slots: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [String]
  init(count: Int) { storage = Array(repeating: "", count: count) }
  func set(_ index: Int, _ value: String) {
    lock.lock()
    storage[index] = value
    lock.unlock()
  }
  var values: [String] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}

private func join(_ folder: String, _ name: String) -> String {
  folder.isEmpty ? name : folder + "/" + name
}
