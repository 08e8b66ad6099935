import DuetSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a lane's declared `outputs:` hold on disk after it passed: every
/// regular file under them (a declared folder is walked, links not followed),
/// every link by its target text, and the declared paths that are missing.
///
/// A declared path is reached through real folders only: a link on the way
/// (`build -> /tmp/x`) is a problem, as is a FIFO, socket or device under an
/// output; such a pass is kept as a pass but never stored in the cache.
package struct OutputFiles: Sendable {
  /// Declared outputs that do not exist: the lane fails.
  package var missing: [String] = []
  /// Why the outputs cannot be stored (`build/fifo is a FIFO`), each a
  /// terminal line: the output path it names escaped as it was made.
  package var problems: [TerminalLine] = []
  /// Each file and link found, in path order; files carry their digest once stored.
  package var outputs: [ActionEntry.Output] = []
  /// Each file's stamp as it was hashed, so the next check need not read it.
  package var stamps: [String: FileStamp] = [:]

  package init() {}

  /// The most files the outputs of one lane may hold and still be stored.
  static let maxFiles = ActionEntry.maxOutputs

  /// Whether a file name is one of duet's own temporaries (`.duet-tmp-XXXXXX`,
  /// written beside a file it replaces): never an output.
  static func isDuetTemporary(_ name: String) -> Bool {
    name.hasPrefix(FileWatcher.temporaryPrefix)
  }

  /// Looks at `declared` under `root`; with a `store`, copies each file into
  /// it. A path inside another declared one is walked once, with it. duet's
  /// own temporary files (a killed restore's) are no outputs: with a `store`
  /// (the lane passed, and no restore of its outputs runs) they are removed.
  /// Looked at on the store's disk (the system's without a store).
  package static func capture(_ declared: [String], root: URL, store: ContentStore?) -> OutputFiles {
    let disk = store?.disk ?? systemDisk
    var found = OutputFiles()
    let covered = { (path: String) in declared.contains { $0 != path && path.hasPrefix($0 + "/") } }
    var seen = Set<String>()
    for path in declared {
      let walked = !covered(path) && seen.insert(path).inserted
      switch OutputFiles.locate(path, root: root, disk: disk) {
      case .missing: found.missing.append(path)
      case .refused(let why): if walked { found.problems.append(why) }
      case .present(let absolute): if walked { found.walk(absolute, relative: path, store: store, disk: disk) }
      }
    }
    found.outputs.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    return found
  }

  /// Where a declared path stands: missing, present (its absolute path), or
  /// reached through something that is not a folder.
  enum Location {
    case missing
    case present(String)
    case refused(TerminalLine)
  }

  static func locate(_ path: String, root: URL, disk: any StoreDisk) -> Location {
    let segments = path.split(separator: "/").map(String.init)
    var current = root.path
    for (offset, segment) in segments.enumerated() {
      current += "/" + segment
      let info: FileStamp
      do { info = try disk.stamp(current, following: false) } catch {
        return error.code == ENOENT || error.code == ENOTDIR ? .missing : .refused("cannot read \(path): \(error.why)")
      }
      let last = offset == segments.count - 1
      if !last && info.kind != S_IFDIR {
        let shown = segments[...offset].joined(separator: "/")
        if info.kind == S_IFLNK { return .refused("\(shown) is a symbolic link; duet keeps outputs reached through real folders only") }
        return .missing
      }
    }
    return .present(current)
  }

  private mutating func walk(_ absolute: String, relative: String, store: ContentStore?, disk: any StoreDisk) {
    guard outputs.count <= OutputFiles.maxFiles else {
      if problems.last?.text.hasPrefix("more than") != true { problems.append("more than \(OutputFiles.maxFiles) output files") }
      return
    }
    let info: FileStamp
    do { info = try disk.stamp(absolute, following: false) } catch {
      problems.append("cannot read \(relative): \(error.why)")
      return
    }
    let kind = info.kind
    if kind == S_IFREG, OutputFiles.isDuetTemporary((relative as NSString).lastPathComponent) {
      if store != nil { disk.remove(absolute) }
      return
    }
    if kind != S_IFDIR, !ActionEntry.isEntryPath(relative) {
      problems.append("\(relative): a name with a control character, which a cache entry cannot hold")
      return
    }
    switch kind {
    case S_IFREG:
      let mode = info.mode & ActionEntry.keptModeBits
      guard let store else {
        outputs.append(.file(path: relative, digest: BlobDigest(hash: "", size: Int(info.size)), mode: mode))
        return
      }
      do {
        let digest = try store.insert(fileAt: absolute)
        // Kept only when the file did not move while it was copied (`info` is its stamp before).
        if disk.status(absolute) == info { stamps[relative] = info }
        outputs.append(.file(path: relative, digest: digest, mode: mode))
      } catch {
        problems.append("\(relative): \(error)")
      }
    case S_IFLNK:
      guard let target = disk.linkTarget(absolute) else {
        problems.append("cannot read the link \(relative), or its target is not UTF-8")
        return
      }
      outputs.append(.link(path: relative, target: target))
    case S_IFDIR:
      let names: [String]
      do { names = try disk.names(in: absolute) } catch {
        problems.append("cannot list \(relative): \(error.why)")
        return
      }
      for name in names.sorted() {
        walk(absolute + "/" + name, relative: relative + "/" + name, store: store, disk: disk)
      }
    default:
      problems.append("\(relative) is \(PathGuard.kindName(mode_t(info.mode))); duet stores files, folders and links only")
    }
  }
}
