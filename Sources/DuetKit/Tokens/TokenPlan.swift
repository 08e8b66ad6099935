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
  public init(_ config: TokenConfig) {
    var files: [GeneratedFile] = []
    var undeclared: [String] = []
    let hasGradients = !config.gradients.isEmpty
    if let swift = config.swift {
      let folder = swift.output
      files.append(GeneratedFile(path: join(folder, "\(TokenFileNames.color).swift"), contents: SwiftEmitter.colorVocabulary(config, target: swift)))
      files.append(GeneratedFile(path: join(folder, "\(TokenFileNames.font).swift"), contents: SwiftEmitter.fontVocabulary(config, target: swift)))
      let gradientPath = join(folder, "\(TokenFileNames.gradient).swift")
      if hasGradients {
        files.append(GeneratedFile(path: gradientPath, contents: SwiftEmitter.gradientVocabulary(config, target: swift)))
      } else {
        undeclared.append(gradientPath)
      }
      files.append(GeneratedFile(path: join(folder, "\(swift.theme)Palette.swift"), contents: SwiftEmitter.palette(config, target: swift)))
    }
    if let kotlin = config.kotlin {
      let folder = kotlin.output
      files.append(GeneratedFile(path: join(folder, "\(TokenFileNames.color).kt"), contents: KotlinEmitter.colorVocabulary(config, target: kotlin)))
      files.append(GeneratedFile(path: join(folder, "\(TokenFileNames.font).kt"), contents: KotlinEmitter.fontVocabulary(config, target: kotlin)))
      let gradientPath = join(folder, "\(TokenFileNames.gradient).kt")
      if hasGradients {
        files.append(GeneratedFile(path: gradientPath, contents: KotlinEmitter.gradientVocabulary(config, target: kotlin)))
      } else {
        undeclared.append(gradientPath)
      }
      files.append(GeneratedFile(path: join(folder, "\(kotlin.palette).kt"), contents: KotlinEmitter.palette(config, target: kotlin)))
    }
    self.files = files
    self.ownedButUndeclared = undeclared
  }
}

private func join(_ folder: String, _ name: String) -> String {
  folder.isEmpty ? name : folder + "/" + name
}
