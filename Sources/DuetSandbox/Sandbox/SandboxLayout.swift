import Foundation

/// What one lane sees inside the sandbox (issue 56): the system's folders and
/// its programs' folders read-only, its declared files read-only at their
/// places in the tree, a private `/tmp`, `/dev` and `/proc`, and the tree's
/// root itself as a scratch folder (`staging`) that holds only what the lane
/// writes. Worked out from values alone, so a unit test can read every mount.
package struct SandboxLayout: Sendable, Equatable {
  /// One mount, in the order bubblewrap makes them.
  enum Mount: Sendable, Equatable {
    /// `source` shown at `path`, read-only; `optional` when it may be absent (a need that did not run).
    case readOnly(source: String, path: String, optional: Bool)
    /// `source` shown at `path`, writable.
    case writable(source: String, path: String)
    /// A link such as `/bin -> usr/bin` (merged-usr systems).
    case link(target: String, path: String)
    case tmpfs(String)
    case proc(String)
    case dev(String)
  }

  var mounts: [Mount]
  /// The paths (relative to the root) bubblewrap makes in `staging` as mount
  /// points: not the lane's writes.
  package var mountPoints: Set<String>

  /// The folders every lane sees read-only, as Flatpak and Bazel's Linux sandbox show them.
  package static let systemFolders = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"]

  /// The layout of one lane. `root` is the tree's absolute path (the lane
  /// sees it there, as outside); `staging` the folder on disk that stands in
  /// for it; `files` the lane's input files and `needOutputs` its needs'
  /// `outputs:`, both relative to the root; `programFolders` the absolute
  /// folders of its `requires:` programs; `duetFiles` absolute files duet
  /// hands it (the changed-files list); `links` which system folders are
  /// symbolic links and to what (`isLink`).
  package static func make(root: String, staging: String, files: [String], needOutputs: [String], programFolders: [String],
                           duetFiles: [String], links: [String: String]) -> SandboxLayout {
    var mounts: [Mount] = []
    for folder in systemFolders {
      if let target = links[folder] {
        mounts.append(.link(target: target, path: folder))
      } else {
        mounts.append(.readOnly(source: folder, path: folder, optional: true))
      }
    }
    let system = systemFolders + ["/tmp", "/dev", "/proc"]
    for folder in programFolders.sorted() where !system.contains(where: { isWithin(folder, $0) }) && !isWithin(folder, root) {
      mounts.append(.readOnly(source: folder, path: folder, optional: true))
    }
    mounts += [.tmpfs("/tmp"), .dev("/dev"), .proc("/proc"), .writable(source: staging, path: root)]
    var points = Set<String>()
    for file in (files + needOutputs).sorted() where !points.contains(file) {
      points.insert(file)
      mounts.append(.readOnly(source: root + "/" + file, path: root + "/" + file, optional: needOutputs.contains(file)))
    }
    for file in duetFiles where isWithin(file, root) {
      points.insert(String(file.dropFirst(root.count + 1)))
      mounts.append(.readOnly(source: file, path: file, optional: true))
    }
    return SandboxLayout(mounts: mounts, mountPoints: points)
  }

  /// Whether `path` is `folder` or inside it.
  package static func isWithin(_ path: String, _ folder: String) -> Bool {
    path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
  }
}
