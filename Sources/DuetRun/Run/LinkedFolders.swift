import DuetModel
import DuetSupport
import Foundation

/// Symbolic links to folders inside the tree, as a change list must see them:
/// an input glob `src/**` reaches `shared/x.kt` as `src/link/x.kt` when
/// `src/link -> ../shared`, so a change to `shared/x.kt` is a change to
/// `src/link/x.kt` too. The fingerprint's walk follows such links already;
/// `--since`, the hooks and `--watch` get the same files through this.
enum LinkedFolders {
  /// The most entries one search looks at; past it the search stops (what it
  /// found so far still counts).
  static let maxEntries = 200_000

  /// Links to folders inside the tree found under `folders` (tree-relative),
  /// as (link, target), both tree-relative. Links are not walked into.
  static func find(under folders: [String], root: URL) -> [(link: String, target: String)] {
    let realRoot = URL(fileURLWithPath: root.path).resolvingSymlinksInPath().path
    var found: [(String, String)] = []
    var seen = Set<String>()
    var budget = maxEntries
    var pending = Array(Set(folders)).sorted()
    while let folder = pending.popLast(), budget > 0 {
      let absolute = folder.isEmpty ? root.path : root.path + "/" + folder
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: absolute) else { continue }
      for name in names.sorted() where name != ".git" && name != ".duet" {
        budget -= 1
        if budget <= 0 { break }
        let relative = folder.isEmpty ? name : folder + "/" + name
        var info = stat()
        guard lstat(absolute + "/" + name, &info) == 0 else { continue }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
          if seen.insert(relative).inserted { pending.append(relative) }
        case S_IFLNK:
          let target = URL(fileURLWithPath: absolute + "/" + name).resolvingSymlinksInPath().path
          var targetInfo = stat()
          guard stat(target, &targetInfo) == 0, targetInfo.st_mode & S_IFMT == S_IFDIR, target.hasPrefix(realRoot + "/") else { continue }
          found.append((relative, String(target.dropFirst(realRoot.count + 1))))
        default:
          continue
        }
      }
    }
    return found
  }

  /// The folders an input glob's files lie under: its literal segments before
  /// the first wildcard (the tree root for `**/*.kt`).
  static func searchFolder(of pattern: String) -> String {
    var literal: [String] = []
    let segments = pattern.split(separator: "/").map(String.init)
    for segment in segments.dropLast() {
      if segment.contains(where: { "*?[".contains($0) }) { break }
      literal.append(segment)
    }
    return literal.joined(separator: "/")
  }

  /// `changed` with, for each path under a linked folder's target, the same
  /// path under the link.
  static func expand(_ changed: [String], links: [(link: String, target: String)]) -> [String] {
    guard !links.isEmpty else { return changed }
    var expanded = changed
    var present = Set(changed)
    for path in changed {
      for (link, target) in links where path == target || path.hasPrefix(target + "/") {
        let alias = link + path.dropFirst(target.count)
        if present.insert(alias).inserted { expanded.append(alias) }
      }
    }
    return expanded
  }
}
