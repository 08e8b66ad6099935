import Foundation
import DuetSupport

/// How an XCFramework a Swift package links gets built. Kotlin's
/// `XCFramework("Name")` declares `assemble<Name>XCFramework` (both build
/// types) and `assemble<Name>Debug/ReleaseXCFramework`, which write
/// `build/XCFrameworks/debug|release/Name.xcframework`. A package that links
/// one of those paths gets that exact task; a package that links another path
/// under the build folder (the tutorials link a flavor-less
/// `build/XCFrameworks/app/…`) links what a tree's own script publishes there,
/// so the script that names that path is the lane's command.
enum XCFrameworkProducer: Sendable, Equatable {
  /// A Gradle task of the module that declares the framework.
  case gradleTask(String)
  /// A script of the tree (relative to the root) that names the linked path.
  case script(String)

  /// The producer for a framework `name` declared by `module`, given the
  /// paths packages link under its build folder and the tree's scripts.
  static func choose(name: String, module: GradleModule, linked: [String], scripts: [ScriptFile]) -> XCFrameworkProducer {
    let mine = linkedPaths(of: name, linked: linked)
    // `build/XCFrameworks/<flavor>/Name.xcframework`: the flavor, when Gradle writes that folder.
    let flavors = Set(mine.map { path -> String in
      let parts = path.dropFirst(module.path.count + 1).split(separator: "/")
      return parts.count == 4 && parts[0] == "build" && parts[1] == "XCFrameworks" ? String(parts[2]) : ""
    })
    if flavors.count == 1, let flavor = flavors.first, flavor == "debug" || flavor == "release" {
      return .gradleTask("assemble\(name)\(flavor == "debug" ? "Debug" : "Release")XCFramework")
    }
    let other = mine.filter { path in !["debug", "release"].contains(path.split(separator: "/").dropLast().last.map(String.init) ?? "") }
    if let path = other.first, let script = scripts.first(where: { $0.text.contains(path) }) {
      return .script(script.path)
    }
    return .gradleTask(GradleModule.xcframeworkTask(name))
  }

  /// The linked paths that are framework `name` (all of them for an unnamed
  /// `XCFramework()`), each once however many packages link it.
  static func linkedPaths(of name: String, linked: [String]) -> [String] {
    var seen = Set<String>()
    return linked.filter { path in (name.isEmpty || (path as NSString).lastPathComponent == name + ".xcframework") && seen.insert(path).inserted }
  }

  /// Of the paths packages link for framework `name`, the ones this producer
  /// writes: a flavor task writes `build/XCFrameworks/<flavor>/Name.xcframework`,
  /// a script the paths its text names, the both-flavors task both; none
  /// writes a path a package links elsewhere. They are the lane's
  /// `outputs:`, which the generated CI hands to the lanes that need it.
  func outputs(name: String, linked: [String], scripts: [ScriptFile]) -> [String] {
    let mine = Self.linkedPaths(of: name, linked: linked)
    switch self {
    case .gradleTask(let task):
      let flavors = task.hasSuffix("DebugXCFramework") ? ["debug"] : task.hasSuffix("ReleaseXCFramework") ? ["release"] : ["debug", "release"]
      return mine.filter { path in
        let parts = path.split(separator: "/").map(String.init)
        return parts.count >= 4 && parts[parts.count - 4] == "build" && parts[parts.count - 3] == "XCFrameworks" && flavors.contains(parts[parts.count - 2])
      }
    case .script(let scriptPath):
      let text = scripts.first { $0.path == scriptPath }?.text ?? ""
      return mine.filter { text.contains($0) }
    }
  }
}

/// A shell script of the tree (`scripts/*.sh`, `parity/scripts/*.sh`), read so adoption can tell
/// which one publishes a path; at most 64 KiB of each is read.
struct ScriptFile: Sendable, Equatable {
  var path: String
  var text: String
  var isExecutable: Bool

  /// Where a tree keeps such scripts: at the root, and under `parity/` as Duet trees do.
  static let folders = ["scripts", "parity/scripts"]

  /// `*.sh` in each of `folders`, sorted within each; at most 200 a folder.
  static func read(root: URL) -> [ScriptFile] {
    folders.flatMap { folderPath -> [ScriptFile] in
      let folder = root.appendingPathComponent(folderPath)
      let entries = Glob.entries(of: folder.path).filter { !$0.isDirectory && $0.name.hasSuffix(".sh") }.map(\.name).sorted().prefix(200)
      return entries.compactMap { name in
        let url = folder.appendingPathComponent(name)
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: 65_536)) ?? Data()
        return ScriptFile(path: folderPath + "/" + name, text: String(decoding: data, as: UTF8.self), isExecutable: ExecutableFile.exists(at: url.path))
      }
    }
  }

  /// How a lane runs it from the tree root.
  var command: String {
    if isExecutable { return ShellWord.quoted(path).text }
    let shebang = text.prefix { $0 != "\n" }
    return (shebang.hasPrefix("#!") && shebang.contains("bash") ? "bash " : "sh ") + ShellWord.quoted(path).text
  }
}
