import Foundation
import DuetSupport

/// A module of the tree: a folder relative to the root, with why duet thinks it is one.
package struct Module: Sendable, Equatable {
  var path: String
  /// `modules: src-kmp/*`, `src-kmp/settings.gradle.kts`, `Package.swift`.
  var foundBy: [String]
  /// The lanes whose `covers` reach it.
  var coveredBy: [String]
}

/// Finds the modules of a tree as the Duet toolchain does: the manifest's
/// `modules:` globs, Gradle `include(...)`s and every folder with a `Package.swift`.
package enum ModuleDiscovery {
  /// Folders never searched: build products, caches and dependency checkouts.
  static let skippedFolders: Set<String> = [".git", ".build", "build", ".swiftpm", ".gradle", "node_modules", "Pods", "DerivedData", ".duet"]

  package static func discover(root: URL, manifest: Manifest) -> [Module] {
    var found: [String: [String]] = [:]
    var order: [String] = []
    func note(_ path: String, _ reason: String) {
      if found[path] == nil { order.append(path) }
      if !(found[path]?.contains(reason) ?? false) { found[path, default: []].append(reason) }
    }
    for pattern in manifest.modules {
      for path in Glob(pattern).expand(in: root, kind: .directories) { note(path, "modules: \(pattern)") }
    }
    let (settings, packages, xcodegenSpecs) = buildFiles(root: root)
    for file in settings {
      let folder = (file as NSString).deletingLastPathComponent
      guard let data = try? PathGuard.read(file, in: root), let text = String(data: data, encoding: .utf8) else { continue }
      for project in gradleIncludes(in: text) {
        guard let path = gradleModulePath(project, settingsFolder: folder) else { continue }
        note(path, file)
      }
    }
    // An app XcodeGen describes has no committed .xcodeproj; its spec marks the module.
    for file in packages + xcodegenSpecs {
      let folder = (file as NSString).deletingLastPathComponent
      note(folder.isEmpty ? "." : folder, file)
    }
    let index = CoverIndex(manifest.lanes)
    return order.sorted(by: Glob.precedes).map { path in
      Module(path: path, foundBy: found[path] ?? [], coveredBy: index.lanes(covering: path).map { manifest.lanes[$0].name })
    }
  }

  /// The lanes' `covers`, indexed so a manifest of a thousand lanes (what `duet
  /// init` writes for a thousand modules) is not a thousand globs per module:
  /// literal folders are looked up by each of the module's ancestors, and only
  /// wildcard patterns are matched one by one.
  struct CoverIndex {
    var everything: [Int] = []
    var literal: [String: [Int]] = [:]
    var patterns: [(lane: Int, glob: Glob)] = []

    init(_ lanes: [Lane]) {
      for (lane, entry) in lanes.enumerated() {
        for cover in entry.covers {
          let glob = Glob(cover)
          if glob.pattern == "." {
            everything.append(lane)
          } else if glob.isLiteral {
            if !glob.segments.isEmpty { literal[glob.segments.joined(separator: "/"), default: []].append(lane) }
          } else {
            patterns.append((lane, glob))
          }
        }
      }
    }

    /// Indices of the lanes covering `module`, in manifest order.
    func lanes(covering module: String) -> [Int] {
      var hits = Set(everything)
      var path = module
      while true {
        hits.formUnion(literal[path] ?? [])
        guard let slash = path.lastIndex(of: "/") else { break }
        path = String(path[..<slash])
      }
      for (lane, glob) in patterns where !hits.contains(lane) && ModuleDiscovery.covered(module, by: glob) {
        hits.insert(lane)
      }
      return hits.sorted()
    }
  }

  /// A lane covering a folder covers the modules inside it too.
  package static func covered(_ module: String, by glob: Glob) -> Bool {
    if glob.pattern == "." { return true }
    var path = module
    while true {
      if glob.matches(path) { return true }
      guard let slash = path.lastIndex(of: "/") else { return false }
      path = String(path[..<slash])
    }
  }

  /// The folder of Gradle project `:a:b` included by a settings file in
  /// `settingsFolder` (`""` for the root): `settingsFolder/a/b`.
  package static func gradleModulePath(_ project: String, settingsFolder: String) -> String? {
    let relative = project.split(separator: ":").joined(separator: "/")
    guard !relative.isEmpty else { return nil }
    return settingsFolder.isEmpty ? relative : settingsFolder + "/" + relative
  }

  /// The project paths named by `include(":a", ":b:c")` (on one line or
  /// several) or Groovy's `include ':a', ':b'` (continued after each comma).
  /// Includes in comments or strings are not read, nor names built at run time.
  package static func gradleIncludes(in text: String) -> [String] {
    let script = BuildScript(text)
    var projects: [String] = []
    for position in script.positions(of: "include") {
      if let arguments = script.arguments(at: position + 1) {
        projects += BuildScript.literals(arguments)
        continue
      }
      var index = position + 1
      while index < script.tokens.count, case .literal(let name) = script.tokens[index] {
        if let name { projects.append(name) }
        guard index + 1 < script.tokens.count, script.tokens[index + 1] == .symbol(",") else { break }
        index += 2
      }
    }
    return projects
  }

  /// Every `settings.gradle(.kts)`, `Package.swift` and XcodeGen spec under the
  /// root, relative to it, in one walk that skips build products and hidden folders.
  package static func buildFiles(root: URL) -> (settings: [String], packages: [String], xcodegenSpecs: [String]) {
    var settings: [String] = []
    var packages: [String] = []
    var specs: [String] = []
    walk(root: root) { path, name, isDirectory in
      guard !isDirectory else { return true }
      if name == "settings.gradle" || name == "settings.gradle.kts" {
        settings.append(path)
      } else if name == "Package.swift" {
        packages.append(path)
      } else if isXcodegenSpec(path, name: name, root: root) {
        specs.append(path)
      }
      return false
    }
    return (settings, packages, specs)
  }

  /// `xcodegen.yml` (or `.yaml`), or XcodeGen's default `project.yml` when it
  /// has a top-level `targets:` (a `project.yml` can be something else).
  static func isXcodegenSpec(_ path: String, name: String, root: URL) -> Bool {
    if name == "xcodegen.yml" || name == "xcodegen.yaml" { return true }
    guard name == "project.yml" || name == "project.yaml",
          let data = (try? PathGuard.read(path, in: root)) ?? nil else { return false }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").contains { $0.hasPrefix("targets:") }
  }

  /// Every entry under `root` (root-relative path, name, whether a folder), skipping
  /// hidden and build folders; `visit` returns whether to go into a folder.
  package static func walk(root: URL, visit: (_ path: String, _ name: String, _ isDirectory: Bool) -> Bool) {
    func walk(_ directory: String, relative: String) {
      for entry in Glob.entries(of: directory) {
        let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
        if entry.isDirectory && (skippedFolders.contains(entry.name) || entry.name.hasPrefix(".")) { continue }
        if visit(path, entry.name, entry.isDirectory) && entry.isDirectory {
          walk(directory + "/" + entry.name, relative: path)
        }
      }
    }
    walk(root.path, relative: "")
  }
}
