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
    }
    let slots = Slots(count: jobs.count)
    let emitters = jobs.map(\.emit)
    DispatchQueue.concurrentPerform(iterations: emitters.count) { index in slots.set(index, emitters[index]()) }
    self.files = zip(jobs, slots.values).map { GeneratedFile(path: $0.path, contents: $1) }
    self.ownedButUndeclared = undeclared
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
