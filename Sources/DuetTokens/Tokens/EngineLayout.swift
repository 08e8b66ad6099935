import Foundation
import DuetModel
import DuetSupport

/// Which files duet writes in the layout of the Duet toolchain's engine: a
/// target (Swift or Kotlin, engine style) any of whose vocabulary or palette
/// files on disk carries the engine's banner is the engine's, and all four of
/// its files (`SemanticColor`, `SemanticFont`, `SemanticGradient`, the
/// palette) are written as the engine writes them, so the toolchain's own
/// whole-file check stays green after duet regenerates. Files the engine does
/// not write (theme mappings, scales) stay in duet's layout.
enum EngineLayout {
  /// `plan`'s files, those of the engine's targets under `root` in the
  /// engine's layout, with the engine's words read from the files on disk.
  static func files(_ plan: TokenPlan, config: TokenConfig, root: URL) -> [GeneratedFile] {
    let targets = engineTargets(config, root: root)
    guard !targets.isEmpty else { return plan.files }
    return plan.files.map { file in
      guard let target = targets.first(where: { $0.renders[file.path] != nil }), let render = target.renders[file.path]
      else { return file }
      let onDisk = read(file.path, root: root)
      var prose = onDisk.flatMap { EngineBanner.recognizes($0) ? EngineProse.read($0) : nil } ?? EngineProse()
      if prose.banner.isEmpty { prose.banner = target.banner }
      return GeneratedFile(path: file.path, contents: render(prose))
    }
  }

  /// Whether `onDisk`, an engine-bannered file at `path`, is what duet writes
  /// there in the engine's layout (its words read from itself).
  static func writes(_ onDisk: String, at path: String, config: TokenConfig) -> Bool {
    let swift = config.swift.map { swiftFiles(config, $0) } ?? [:]
    let kotlin = config.kotlin.map { kotlinFiles(config, $0) } ?? [:]
    guard let render = swift[path] ?? kotlin[path] else { return false }
    return render(EngineProse.read(onDisk)) == onDisk
  }

  /// One target whose files the engine wrote: the banner of one of them (for
  /// a file the target gains, such as `SemanticGradient`) and how each of its
  /// files is written.
  struct Target {
    var banner: [String]
    var renders: [String: (EngineProse) -> String]
  }

  /// The targets of `config` whose files on disk the engine wrote.
  static func engineTargets(_ config: TokenConfig, root: URL) -> [Target] {
    var result: [Target] = []
    for renders in [config.swift.map { swiftFiles(config, $0) }, config.kotlin.map { kotlinFiles(config, $0) }] {
      guard let renders else { continue }
      // The banner is in a file's head: a tree in duet's layout is not read whole.
      guard let path = renders.keys.sorted().first(where: { opensWithEngineBanner($0, root: root) }),
        let text = read(path, root: root)
      else { continue }
      result.append(Target(banner: EngineProse.read(text).banner, renders: renders))
    }
    return result
  }

  /// The Swift target's four files, by path.
  static func swiftFiles(_ config: TokenConfig, _ target: SwiftTarget) -> [String: (EngineProse) -> String] {
    guard target.style == .engine else { return [:] }
    func path(_ name: String) -> String { join(target.output, name + ".swift") }
    return [
      path(TokenFileNames.color): {
        EngineSwiftLayout.vocabulary($0, target: target, type: TokenFileNames.color, conformance: "ColorAssetable",
                                     groups: config.colorGroups.map { ($0.heading, $0.tokens.map { ($0.name, $0.doc) }) })
      },
      path(TokenFileNames.font): {
        EngineSwiftLayout.vocabulary($0, target: target, type: TokenFileNames.font, conformance: "FontAssetable",
                                     groups: config.fontGroups.map { ($0.heading, $0.tokens.map { ($0.name, $0.doc) }) })
      },
      path(TokenFileNames.gradient): {
        EngineSwiftLayout.vocabulary($0, target: target, type: TokenFileNames.gradient, conformance: "GradientAssetable",
                                     groups: [(nil, config.gradients.map { ($0.name, $0.doc) })])
      },
      path("\(target.theme)Palette"): { EngineSwiftLayout.palette($0, config: config, target: target) },
    ]
  }

  /// The Kotlin target's four files, by path.
  static func kotlinFiles(_ config: TokenConfig, _ target: KotlinTarget) -> [String: (EngineProse) -> String] {
    guard target.style == .engine else { return [:] }
    func path(_ name: String) -> String { join(target.output, name + ".kt") }
    return [
      path(TokenFileNames.color): {
        EngineKotlinLayout.vocabulary($0, target: target, type: TokenFileNames.color,
                                      groups: config.colorGroups.map { ($0.heading, $0.tokens.map { ($0.name, $0.doc) }) })
      },
      path(TokenFileNames.font): {
        EngineKotlinLayout.vocabulary($0, target: target, type: TokenFileNames.font,
                                      groups: config.fontGroups.map { ($0.heading, $0.tokens.map { ($0.name, $0.doc) }) })
      },
      path(TokenFileNames.gradient): {
        EngineKotlinLayout.vocabulary($0, target: target, type: TokenFileNames.gradient,
                                      groups: [(nil, config.gradients.map { ($0.name, $0.doc) })])
      },
      path(target.palette): { EngineKotlinLayout.palette($0, config: config, target: target) },
    ]
  }

  /// Whether the regular file at `path` inside the tree opens with the engine's banner.
  static func opensWithEngineBanner(_ path: String, root: URL) -> Bool {
    guard let url = try? TreePath.resolveForWriting(path, in: root),
      let fd = try? PathGuard.openRegularFile(atAbsolute: url.path, displayPath: path)
    else { return false }
    let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    let head = (try? handle.read(upToCount: EngineBanner.headLength)) ?? Data()
    return EngineBanner.recognizes(String(decoding: head, as: UTF8.self))
  }

  /// A regular file inside the tree, as text; nil for anything else.
  static func read(_ path: String, root: URL) -> String? {
    guard let url = try? TreePath.resolveForWriting(path, in: root),
      let data = try? PathGuard.readRegularFile(atAbsolute: url.path, displayPath: path)
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  private static func join(_ folder: String, _ name: String) -> String {
    folder.isEmpty ? name : folder + "/" + name
  }
}
