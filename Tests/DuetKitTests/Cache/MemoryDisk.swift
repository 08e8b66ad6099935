import Foundation
@testable import DuetSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `StoreDisk` in memory (issue 54, item 10): folders, files, links and
/// FIFOs by absolute path, descriptors numbered from 1000, a clock that ticks
/// on every change so a stamp moves as a real one does. Links on the way are
/// followed as the kernel follows them; a last link only where the call says.
/// A second name (`hardLink`) is a copy: duet never writes a file in place.
///
/// `pause` runs before a file of the tree is opened to be stored (a capture),
/// with its path: a test holds it there to make a capture slow.
final class MemoryDisk: StoreDisk {
  enum Kind: Equatable { case folder, file, link, fifo }

  struct Node {
    var kind: Kind
    var bytes: [UInt8] = []
    var permissions: UInt32 = 0o644
    var target = ""
    var inode: UInt64 = 0
    var modified: Int64 = 0
  }

  /// What a descriptor is open on: a folder, or a file to read or to write.
  enum Open {
    case folder(String)
    case reading(String)
    case writing(String)
  }

  struct State {
    /// By absolute path without a trailing slash; the root is "".
    var nodes: [String: Node] = ["": Node(kind: .folder, permissions: 0o755)]
    var open: [Int32: Open] = [:]
    var nextDescriptor: Int32 = 1000
    var clock: Int64 = 1
    /// Every change, in order (`rename /t/.duet-tmp-x -> /t/build/a`), for tests that read the sequence.
    var journal: [String] = []
  }

  let state = Locked(State())
  let pause: @Sendable (String) -> Void

  init(pause: @escaping @Sendable (String) -> Void = { _ in }) {
    self.pause = pause
  }

  // MARK: Setting up and reading back, for tests

  func addFolder(_ path: String) { try? makeFolders(path) }

  func addFile(_ path: String, _ text: String, permissions: UInt32 = 0o644) {
    try? makeFolders((path as NSString).deletingLastPathComponent)
    state.withLock { $0.put(Self.key(path), Node(kind: .file, bytes: Array(text.utf8), permissions: permissions)) }
  }

  func addLink(_ path: String, to target: String) {
    try? makeFolders((path as NSString).deletingLastPathComponent)
    state.withLock { $0.put(Self.key(path), Node(kind: .link, target: target)) }
  }

  func addFIFO(_ path: String) {
    try? makeFolders((path as NSString).deletingLastPathComponent)
    state.withLock { $0.put(Self.key(path), Node(kind: .fifo)) }
  }

  /// A file's text; nil where no file stands.
  func text(_ path: String) -> String? {
    state.withLock { $0.nodes[Self.key(path)] }.flatMap { $0.kind == .file ? String(decoding: $0.bytes, as: UTF8.self) : nil }
  }

  func kind(_ path: String) -> Kind? { state.withLock { $0.nodes[Self.key(path)]?.kind } }

  /// Everything under `folder`, tree-relative, with what it is (`a.txt`, `link -> a.txt`, `sub/`), sorted.
  func listing(_ folder: String) -> [String] {
    let prefix = Self.key(folder) + "/"
    return state.withLock { state in
      state.nodes.compactMap { key, node -> String? in
        guard key.hasPrefix(prefix) else { return nil }
        let name = String(key.dropFirst(prefix.count))
        switch node.kind {
        case .folder: return name + "/"
        case .link: return name + " -> " + node.target
        case .file, .fifo: return name
        }
      }.sorted()
    }
  }

  /// How many descriptors are open: 0 after a call that closes what it opens.
  var openDescriptors: Int { state.withLock { $0.open.count } }

  var journal: [String] { state.withLock { $0.journal } }

  // MARK: Paths

  static func key(_ path: String) -> String {
    path.split(separator: "/").reduce(into: "") { $0 += "/" + $1 }
  }

  static func parent(_ key: String) -> String {
    guard let slash = key.lastIndex(of: "/") else { return "" }
    return String(key[..<slash])
  }

  // MARK: StoreDisk: looking

  func stamp(_ path: String, following: Bool) throws(DiskFailure) -> FileStamp {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.resolve(path, followingLast: following)
      guard let node = state.nodes[key] else { throw DiskFailure(code: ENOENT) }
      return Self.stamp(node)
    }
  }

  func status(_ name: String, in folder: Int32) -> FileStamp? {
    state.withLock { state in
      guard case .folder(let key)? = state.open[folder], let node = state.nodes[key + "/" + name] else { return nil }
      return Self.stamp(node)
    }
  }

  static func stamp(_ node: Node) -> FileStamp {
    let kind: mode_t = switch node.kind {
    case .folder: S_IFDIR
    case .file: S_IFREG
    case .link: S_IFLNK
    case .fifo: S_IFIFO
    }
    return FileStamp(device: 1, inode: node.inode, size: Int64(node.kind == .link ? node.target.utf8.count : node.bytes.count),
                     mode: UInt32(kind) | node.permissions, modified: node.modified, changed: node.modified)
  }

  func names(in path: String) throws(DiskFailure) -> [String] {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.resolve(path, followingLast: true)
      guard let node = state.nodes[key] else { throw DiskFailure(code: ENOENT) }
      guard node.kind == .folder else { throw DiskFailure(code: ENOTDIR) }
      return state.nodes.keys.filter { !$0.isEmpty && Self.parent($0) == key }.map { String($0.dropFirst(key.count + 1)) }
    }
  }

  func linkTarget(_ path: String) -> String? {
    state.withLock { state in
      guard let key = try? state.resolve(path, followingLast: false), let node = state.nodes[key], node.kind == .link else { return nil }
      return node.target
    }
  }

  func readFile(_ path: String) throws(DiskFailure) -> Data {
    let fd = try openRegularFile(path, pausing: false)
    defer { close(fd) }
    var data = Data()
    _ = read(fd) { data.append(contentsOf: $0) }
    return data
  }

  // MARK: StoreDisk: writing by path

  func makeFolders(_ path: String) throws(DiskFailure) {
    try locked { (state: inout State) throws(DiskFailure) in
      var key = ""
      for part in path.split(separator: "/") {
        key += "/" + part
        let resolved = try state.resolve(key, followingLast: true)
        switch state.nodes[resolved]?.kind {
        case nil: state.put(resolved, Node(kind: .folder, permissions: 0o755))
        case .folder?: break
        default: throw DiskFailure(code: EEXIST, why: "the file “\(part)” couldn’t be saved because a file with the same name already exists")
        }
        key = resolved
      }
    }
  }

  /// Makes its folder first, as `AtomicFile.write` does.
  func writeFile(_ data: Data, atomicallyTo path: String, shown: String) throws(DiskFailure) {
    try makeFolders((path as NSString).deletingLastPathComponent)
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.resolve(path, followingLast: false)
      guard state.nodes[Self.parent(key)]?.kind == .folder else { throw DiskFailure(why: "cannot write \(shown): No such file or directory") }
      if let there = state.nodes[key], there.kind != .file { throw DiskFailure(why: "refusing to write \(shown): it is not a regular file") }
      state.put(key, Node(kind: .file, bytes: [UInt8](data), permissions: 0o644))
    }
  }

  func remove(_ path: String) -> Bool {
    state.withLock { state in
      guard let key = try? state.resolve(path, followingLast: false), let node = state.nodes[key], node.kind != .folder else { return false }
      state.drop(key)
      return true
    }
  }

  func rename(_ path: String, to target: String) throws(DiskFailure) {
    try locked { (state: inout State) throws(DiskFailure) in
      try state.rename(try state.resolve(path, followingLast: false), to: try state.resolve(target, followingLast: false))
    }
  }

  func move(_ path: String, to target: String) throws(DiskFailure) {
    try locked { (state: inout State) throws(DiskFailure) in
      let to = try state.resolve(target, followingLast: false)
      guard state.nodes[to] == nil else { throw DiskFailure(code: EEXIST) }
      try state.rename(try state.resolve(path, followingLast: false), to: to)
    }
  }

  func setMode(_ path: String, _ mode: UInt32) {
    state.withLock { state in
      guard let key = try? state.resolve(path, followingLast: true), state.nodes[key] != nil else { return }
      state.nodes[key]?.permissions = mode & 0o7777
    }
  }

  func touch(_ path: String) {
    state.withLock { state in
      guard let key = try? state.resolve(path, followingLast: true), state.nodes[key] != nil else { return }
      state.clock += 1
      state.nodes[key]?.modified = state.clock
    }
  }

  func makeTemporary(in folder: String, prefix: String) throws(DiskFailure) -> (fd: Int32, path: String) {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.resolve(folder, followingLast: true)
      guard state.nodes[key]?.kind == .folder else { throw DiskFailure(code: ENOENT) }
      var name: String
      repeat { name = key + "/" + prefix + String(UInt32.random(in: 0..<UInt32.max), radix: 36) } while state.nodes[name] != nil
      state.put(name, Node(kind: .file, permissions: 0o600))
      return (state.descriptor(.writing(name)), name)
    }
  }

  // MARK: StoreDisk: descriptors

  func open(_ path: String) throws(DiskFailure) -> Int32 {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.resolve(path, followingLast: false)
      switch state.nodes[key]?.kind {
      case nil: throw DiskFailure(code: ENOENT)
      case .link?: throw DiskFailure(code: ELOOP)
      case .folder?: throw DiskFailure(code: EISDIR)
      case .file?, .fifo?: return state.descriptor(.reading(key))
      }
    }
  }

  func openRegularFile(_ path: String) throws(DiskFailure) -> Int32 {
    try openRegularFile(path, pausing: true)
  }

  private func openRegularFile(_ path: String, pausing: Bool) throws(DiskFailure) -> Int32 {
    if pausing { pause(path) }
    return try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.resolve(path, followingLast: false)
      switch state.nodes[key]?.kind {
      case nil: throw DiskFailure(code: ENOENT, why: "cannot read \(path): No such file or directory")
      case .link?: throw DiskFailure(code: ELOOP, why: "refusing \(path): it is a symbolic link")
      case .file?: return state.descriptor(.reading(key))
      default: throw DiskFailure(why: "refusing \(path): it is not a regular file")
      }
    }
  }

  func close(_ fd: Int32) {
    _ = state.withLock { $0.open.removeValue(forKey: fd) }
  }

  func read(_ fd: Int32, seen: (UnsafeRawBufferPointer) -> Void) -> String? {
    guard let bytes = state.withLock({ state -> [UInt8]? in
      guard case .reading(let key)? = state.open[fd] else { return nil }
      return state.nodes[key]?.bytes
    }) else { return "Bad file descriptor" }
    bytes.withUnsafeBytes(seen)
    return nil
  }

  func copy(from source: Int32, to target: Int32, seen: (UnsafeRawBufferPointer) -> Void) -> (bytes: Int, failure: String?) {
    var copied: [UInt8] = []
    if let failure = read(source, seen: { chunk in
      seen(chunk)
      copied += chunk
    }) { return (0, failure) }
    return (copied.count, copied.withUnsafeBytes { write($0, to: target) })
  }

  func copyInKernel(from source: Int32, to target: Int32) -> (bytes: Int, failure: String?) {
    copy(from: source, to: target) { _ in }
  }

  func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> String? {
    state.withLock { state in
      guard case .writing(let key)? = state.open[fd], state.nodes[key] != nil else { return "Bad file descriptor" }
      state.clock += 1
      state.nodes[key]?.bytes += bytes
      state.nodes[key]?.modified = state.clock
      return nil
    }
  }

  func setMode(of fd: Int32, _ mode: UInt32) throws(DiskFailure) {
    try locked { (state: inout State) throws(DiskFailure) in
      guard case .writing(let key)? = state.open[fd], state.nodes[key] != nil else { throw DiskFailure(code: EBADF) }
      state.nodes[key]?.permissions = mode & 0o7777
    }
  }

  // MARK: StoreDisk: folders by descriptor

  func openFolder(_ path: String) throws(DiskFailure) -> Int32 {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.resolve(path, followingLast: true)
      guard let node = state.nodes[key] else { throw DiskFailure(code: ENOENT) }
      guard node.kind == .folder else { throw DiskFailure(code: ENOTDIR) }
      return state.descriptor(.folder(key))
    }
  }

  func openFolder(_ name: String, in folder: Int32) throws(DiskFailure) -> Int32 {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.child(name, of: folder)
      switch state.nodes[key]?.kind {
      case nil: throw DiskFailure(code: ENOENT)
      case .folder?: return state.descriptor(.folder(key))
      case .link?: throw DiskFailure(code: ELOOP)
      default: throw DiskFailure(code: ENOTDIR)
      }
    }
  }

  func duplicate(_ fd: Int32) throws(DiskFailure) -> Int32 {
    try locked { (state: inout State) throws(DiskFailure) in
      guard let open = state.open[fd] else { throw DiskFailure(code: EBADF) }
      return state.descriptor(open)
    }
  }

  func makeFolder(_ name: String, in folder: Int32) throws(DiskFailure) {
    try create(name, in: folder, Node(kind: .folder, permissions: 0o755))
  }

  func createExclusive(_ name: String, in folder: Int32) throws(DiskFailure) -> Int32 {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.child(name, of: folder)
      guard state.nodes[key] == nil else { throw DiskFailure(code: EEXIST) }
      state.put(key, Node(kind: .file, permissions: 0o600))
      return state.descriptor(.writing(key))
    }
  }

  func remove(_ name: String, in folder: Int32) throws(DiskFailure) {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.child(name, of: folder)
      guard let node = state.nodes[key] else { throw DiskFailure(code: ENOENT) }
      guard node.kind != .folder else { throw DiskFailure(code: EISDIR) }
      state.drop(key)
    }
  }

  func rename(_ name: String, to target: String, in folder: Int32) throws(DiskFailure) {
    try locked { (state: inout State) throws(DiskFailure) in
      try state.rename(try state.child(name, of: folder), to: try state.child(target, of: folder))
    }
  }

  func makeLink(_ name: String, in folder: Int32, to target: String) throws(DiskFailure) {
    try create(name, in: folder, Node(kind: .link, target: target))
  }

  func hardLink(_ path: String, as name: String, in folder: Int32) throws(DiskFailure) {
    try locked { (state: inout State) throws(DiskFailure) in
      let from = try state.resolve(path, followingLast: false), to = try state.child(name, of: folder)
      guard let node = state.nodes[from] else { throw DiskFailure(code: ENOENT) }
      guard node.kind == .file else { throw DiskFailure(code: EPERM) }
      guard state.nodes[to] == nil else { throw DiskFailure(code: EEXIST) }
      state.nodes[to] = node
      state.journal.append("link \(from) -> \(to)")
    }
  }
}

extension MemoryDisk.State {
  /// The key of `path` with every link on the way followed (the last only
  /// when `followingLast`); the node there may not exist, its folder must.
  func resolve(_ path: String, followingLast: Bool) throws(DiskFailure) -> String {
    var queue = ArraySlice(path.split(separator: "/").map(String.init))
    var current = ""
    var hops = 0
    while let part = queue.popFirst() {
      if part == "." { continue }
      if part == ".." { current = MemoryDisk.parent(current); continue }
      let next = current + "/" + part
      let last = queue.isEmpty
      switch nodes[next]?.kind {
      case .link? where !last || followingLast:
        hops += 1
        guard hops < 40 else { throw DiskFailure(code: ELOOP) }
        let target = nodes[next]!.target
        if target.hasPrefix("/") { current = "" }
        queue = ArraySlice(target.split(separator: "/").map(String.init) + queue)
      case nil where !last: throw DiskFailure(code: ENOENT)
      case .file?, .fifo?: if last { current = next } else { throw DiskFailure(code: ENOTDIR) }
      default: current = next
      }
    }
    return current
  }

  /// The key of `name` in the open folder `fd`.
  func child(_ name: String, of fd: Int32) throws(DiskFailure) -> String {
    guard case .folder(let key)? = open[fd] else { throw DiskFailure(code: EBADF) }
    guard nodes[key]?.kind == .folder else { throw DiskFailure(code: ENOENT) }
    return key + "/" + name
  }

  mutating func descriptor(_ what: MemoryDisk.Open) -> Int32 {
    nextDescriptor += 1
    open[nextDescriptor] = what
    return nextDescriptor
  }

  /// Puts a node, a new file (a new inode, modified now), at `key`.
  mutating func put(_ key: String, _ node: MemoryDisk.Node) {
    clock += 1
    var node = node
    node.inode = UInt64(clock)
    node.modified = clock
    nodes[key] = node
    journal.append("put \(key)")
  }

  mutating func drop(_ key: String) {
    nodes[key] = nil
    journal.append("remove \(key)")
  }

  /// `rename`: over a file or link, never over a folder; a folder moves with everything in it.
  mutating func rename(_ from: String, to: String) throws(DiskFailure) {
    guard let node = nodes[from] else { throw DiskFailure(code: ENOENT) }
    guard nodes[MemoryDisk.parent(to)]?.kind == .folder else { throw DiskFailure(code: ENOENT) }
    if let there = nodes[to], there.kind == .folder { throw DiskFailure(code: EISDIR) }
    for key in nodes.keys where key.hasPrefix(from + "/") {
      nodes[to + key.dropFirst(from.count)] = nodes.removeValue(forKey: key)
    }
    nodes[from] = nil
    nodes[to] = node
    journal.append("rename \(from) -> \(to)")
  }
}

extension MemoryDisk {
  /// `body` under the lock, its typed failure kept typed.
  func locked<T>(_ body: (inout State) throws(DiskFailure) -> T) throws(DiskFailure) -> T {
    try state.withLock { state in Result { () throws(DiskFailure) in try body(&state) } }.get()
  }

  func create(_ name: String, in folder: Int32, _ node: Node) throws(DiskFailure) {
    try locked { (state: inout State) throws(DiskFailure) in
      let key = try state.child(name, of: folder)
      guard state.nodes[key] == nil else { throw DiskFailure(code: EEXIST) }
      state.put(key, node)
    }
  }
}
