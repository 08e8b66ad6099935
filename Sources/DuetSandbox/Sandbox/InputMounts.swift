import Foundation

/// Which of a lane's input paths bubblewrap binds (issue 56, item 2): a folder
/// whose every entry is one of the lane's input files (or such a folder) is
/// bound once, whole, instead of file by file. bubblewrap re-reads the mount
/// table after each bind, so a lane of 500 input files took 0.6 to 0.8 s to
/// start, and one folder bind 10 ms. A folder holding anything else (a file
/// not declared, a link, a folder without inputs) stays bound file by file,
/// so the lane sees exactly what it saw before; so does a folder the lane
/// writes into (its own, its outputs' and reports' folders, and those above
/// them), which must stay writable around its read-only inputs.
package enum InputMounts {
  /// One entry of a folder, as `lstat` names it.
  package enum Kind: Sendable, Equatable { case file, folder, other }

  /// `files` (relative to the root), with the highest folders that hold
  /// nothing but them put in their place; sorted. `entries` lists a folder
  /// (relative path; nil when it cannot be read); `written` are the folders
  /// the lane writes into, never bound whole.
  package static func collapse(_ files: [String], written: [String],
                               entries: (String) -> [(name: String, kind: Kind)]?) -> [String] {
    let declared = Set(files)
    var holding = Set<String>()
    for file in files { holding.formUnion(SandboxProfile.folders(above: "/" + file, within: "").map { String($0.dropFirst()) }) }
    holding.remove("")
    var whole: [String: Bool] = [:]
    func isWhole(_ folder: String) -> Bool {
      if let known = whole[folder] { return known }
      var answer = !written.contains { SandboxLayout.isWithin($0, folder) || SandboxLayout.isWithin(folder, $0) }
      if answer, let listing = entries(folder) {
        answer = listing.allSatisfy { entry in
          let path = folder + "/" + entry.name
          switch entry.kind {
          case .file: return declared.contains(path)
          case .folder: return holding.contains(path) && isWhole(path)
          case .other: return false
          }
        }
      } else {
        answer = false
      }
      whole[folder] = answer
      return answer
    }
    var chosen = Set<String>()
    for file in files {
      let above = SandboxProfile.folders(above: "/" + file, within: "").map { String($0.dropFirst()) }.filter { !$0.isEmpty }
      chosen.insert(above.reversed().first(where: isWhole) ?? file)
    }
    return chosen.sorted()
  }

  /// The entries of `folder` under `root` on disk, by `lstat`; nil when it cannot be listed.
  package static func onDisk(root: String) -> (String) -> [(name: String, kind: Kind)]? {
    { folder in
      let path = root + "/" + folder
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
      return names.map { name in
        var info = stat()
        guard lstat(path + "/" + name, &info) == 0 else { return (name, .other) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return (name, .file)
        case S_IFDIR: return (name, .folder)
        default: return (name, .other)
        }
      }
    }
  }
}
