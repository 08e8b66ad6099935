import Foundation
import DuetModel
import DuetProcess
import DuetSandbox
import DuetSupport

/// One attempt of a shell lane run under bubblewrap (issue 56): its scratch
/// folder under `.duet/sandbox/`, taken on a worker before it starts; what it
/// wrote there brought back afterwards (its `outputs:` and `reports:` only,
/// anything else named and dropped); and, when it failed inside, the run
/// outside that names what its declaration misses.
///
/// Made on the loop's thread, prepared and finished on workers: each step
/// happens after the one before it has been posted back, never at once.
///
/// What makes it safe: that order. No two threads ever hold it at once.
final class SandboxedStep: @unchecked Sendable {
  let lane: Lane
  let tools: SandboxTools
  let root: URL
  /// Where the attempt's scratch folder comes from, and goes back to.
  let scratch: SandboxScratch
  /// `.duet/sandbox/<run>/<n>`: the scratch tree and the launcher's files, once `prepare` claimed it.
  private(set) var folder: URL
  private var claimed = false
  let directory: String
  let command: String
  let environment: [String: String]
  let needOutputs: [String]
  let programFolders: [String]
  /// The attempt's spawn, set by `prepare`; nil with `problem` when the sandbox cannot be made.
  private(set) var spec: SpawnSpec?
  private(set) var problem: String?
  /// Bytes of bubblewrap arguments past which they go through a file, not the command line.
  static let commandLineLimit = 64 * 1024
  private var layout: SandboxLayout?

  init(lane: Lane, tools: SandboxTools, root: URL, scratch: SandboxScratch, directory: String, command: String,
               environment: [String: String], needOutputs: [String]) {
    self.lane = lane
    self.tools = tools
    self.root = root
    self.scratch = scratch
    self.folder = scratch.base
    self.directory = directory
    self.command = command
    var environment = environment
    // The host's TMPDIR may be a folder bubblewrap does not show (sandbox-exec's profile lets the lane write it).
    if tools.kind == .bubblewrap, environment["TMPDIR"] != nil { environment["TMPDIR"] = "/tmp" }
    self.environment = environment
    self.needOutputs = needOutputs
    self.programFolders = SandboxTools.folders(of: lane.requires, path: environment[.path] ?? "/usr/bin:/bin")
  }

  var staging: URL { folder.appendingPathComponent("tree") }
  var statusFile: URL { folder.appendingPathComponent("status.json") }
  var traceFile: URL { folder.appendingPathComponent("trace.txt") }
  /// The log of the run outside the sandbox, beside the attempt's own.
  var outsideLogName: String { "\(lane.name).outside-sandbox.log" }

  /// Makes the scratch folder and the launcher's arguments (bubblewrap's, or
  /// sandbox-exec's profile); on a worker, before the attempt starts.
  func prepare() {
    do {
      folder = try scratch.claim()
      claimed = true
      // A folder used before: nothing of its last attempt is read as this one's.
      for file in [statusFile, traceFile] { unlink(file.path) }
      let inputs = InputFiles.paths(lane.inputs, root: root)
      let duetFiles = environment.values.filter { $0.hasPrefix(root.path + "/.duet/") }.sorted()
      switch tools.kind {
      case .bubblewrap: try prepareBubblewrap(inputs: inputs, duetFiles: duetFiles)
      case .sandboxExec: try prepareSandboxExec(inputs: inputs, duetFiles: duetFiles)
      }
    } catch {
      problem = "the sandbox could not be made in \(folder.path): \(error.localizedDescription)"
    }
  }

  /// The folders a lane writes into that must be there before it starts: its
  /// own, its outputs' and its reports' (the fixed part of each pattern).
  private var foldersWritten: [String] {
    var folders = [lane.dir ?? ""] + lane.outputs.map { ($0 as NSString).deletingLastPathComponent }
    folders += reportFolders
    return Set(folders).filter { !$0.isEmpty }.sorted()
  }

  /// The fixed part of each `reports:` pattern: `reports` for `reports/*.xml`.
  private var reportFolders: [String] {
    lane.reports.map { pattern in Glob(pattern).segments.prefix { !$0.contains(where: { "*?[".contains($0) }) }.dropLast().joined(separator: "/") }
  }

  /// Linux: the scratch tree (with the folders the lane writes into) and
  /// bubblewrap's arguments. bubblewrap reports its start on descriptor 4,
  /// which the spawn opens on the status file; a lane of many inputs hands
  /// its options on descriptor 3 instead of the command line (no argv
  /// limit), in a file written only then, through a shell that opens it.
  private func prepareBubblewrap(inputs: [String], duetFiles: [String]) throws {
    for path in foldersWritten {
      try FileManager.default.createDirectory(at: staging.appendingPathComponent(path), withIntermediateDirectories: true)
    }
    let files = InputMounts.collapse(inputs, written: foldersWritten + lane.outputs, entries: InputMounts.onDisk(root: root.path))
    let layout = SandboxLayout.make(root: root.path, staging: staging.path, files: files, needOutputs: needOutputs,
                                    programFolders: programFolders, duetFiles: duetFiles, links: SandboxTools.systemLinks)
    self.layout = layout
    let arguments = BubblewrapArguments.make(layout, network: lane.network, directory: directory, command: command)
    let status = SpawnSpec.StatusFile(descriptor: Int32(BubblewrapArguments.statusDescriptor), path: statusFile.path)
    guard arguments.reduce(0, { $0 + $1.utf8.count + 1 }) > SandboxedStep.commandLineLimit else {
      spec = SpawnSpec(path: tools.launcher, arguments: [tools.launcher] + arguments, directory: root.path,
                       environment: environment, statusFile: status)
      return
    }
    let file = folder.appendingPathComponent("bwrap-arguments")
    try AtomicFile.write(Data(arguments.dropLast(3).map { $0 + "\0" }.joined().utf8), toAbsolute: file.path)
    let script = "b=$0 a=$1; shift; exec \"$b\" --args 3 \"$@\" 3<\"$a\""
    spec = SpawnSpec(path: "/bin/sh", arguments: ["/bin/sh", "-c", script, tools.launcher, file.path] + arguments.suffix(3),
                     directory: root.path, environment: environment, statusFile: status)
  }

  /// macOS: the lane runs in the tree itself under `sandbox-exec -f
  /// profile.sb`; the folders it writes into are made in the tree first (the
  /// profile lets it write only inside its outputs). Its shell, started only
  /// once the profile holds, writes the status bubblewrap would.
  private func prepareSandboxExec(inputs: [String], duetFiles: [String]) throws {
    for path in foldersWritten {
      _ = try PathGuard.resolve(path, in: root)
      try FileManager.default.createDirectory(at: root.appendingPathComponent(path), withIntermediateDirectories: true)
    }
    let real = SandboxTools.resolved(root.path)
    let inTree = { (path: String) in real + "/" + path }
    let temporary = ["/private/tmp", "/private/var/tmp", environment["TMPDIR"]].compactMap { $0 }.map(SandboxTools.resolved)
    let paths = SandboxProfile.Paths(root: real, readable: (inputs + needOutputs).map(inTree) + duetFiles.map(SandboxTools.resolved),
                                     writable: (lane.outputs + reportFolders.filter { !$0.isEmpty }).map(inTree),
                                     temporary: temporary, directory: SandboxTools.resolved(directory))
    let profile = folder.appendingPathComponent("profile.sb")
    try AtomicFile.write(Data(SandboxProfile.make(paths, network: lane.network).utf8), toAbsolute: profile.path)
    let script = "printf '{\"child-pid\": %d}\\n' $$ >&4 && exec /bin/sh -c \"$1\" 4>&-"
    spec = SpawnSpec(path: tools.launcher, arguments: [tools.launcher, "-f", profile.path, "/bin/sh", "-c", script, "sh", command],
                     directory: directory, environment: environment,
                     statusFile: SpawnSpec.StatusFile(descriptor: Int32(BubblewrapArguments.statusDescriptor), path: statusFile.path))
  }

  /// Whether the sandbox started the lane's process (bubblewrap, or the
  /// shell under sandbox-exec, reported `child-pid`).
  var started: Bool {
    guard let data = FileManager.default.contents(atPath: statusFile.path) else { return false }
    return String(decoding: data, as: UTF8.self).contains("\"child-pid\"")
  }

  /// Why the lane did not start: its launcher could not be spawned
  /// (`spawnError`), or it stopped before the lane's process began.
  func cannotStart(_ spawnError: String?) -> String {
    let what = "the sandbox (\(tools.kind.name)) could not start the lane"
    return spawnError.map { "\(what): \($0)" } ?? "\(what); its message is in the lane's log"
  }

  /// The lane's command outside the sandbox, in the tree as a plain verify
  /// runs it, traced when strace is installed.
  var outsideSpec: SpawnSpec {
    let shell = ["/bin/sh", "-c", command]
    guard let strace = tools.strace else {
      return SpawnSpec(path: "/bin/sh", arguments: shell, directory: directory, environment: environment)
    }
    return SpawnSpec(path: strace, arguments: [strace, "-f", "-qq", "-y", "-e", "trace=%file", "-o", traceFile.path, "--"] + shell,
                     directory: directory, environment: environment)
  }

  /// What the sandbox found, after the attempt; on a worker.
  struct Findings: Sendable {
    /// Files the lane wrote outside its outputs and reports (dropped).
    var strays: [String] = []
    /// Why a lane that failed inside passed outside it; nil when it did not.
    var note: String?
    /// Declared outputs or reports that could not be brought back.
    var problems: [String] = []
  }

  /// Brings the lane's outputs and reports back into the tree, names what
  /// else it wrote, reads the outside run's trace when it passed there, and
  /// removes the scratch folder.
  func finish(passedOutside: Bool?) -> Findings {
    var findings = Findings()
    defer { if claimed { scratch.giveBack(folder) } }
    if let layout, started {
      let written = SandboxCollection.writtenFiles(under: staging.path, mountPoints: layout.mountPoints)
      let sorted = SandboxCollection.sort(written, outputs: lane.outputs, reports: lane.reports)
      findings.strays = sorted.strays
      findings.problems = SandboxCollection.bringBack(outputs: lane.outputs.filter { path in written.contains { SandboxLayout.isWithin($0, path) } },
                                                      reports: sorted.reports, from: staging, to: root)
    }
    if passedOutside == true { findings.note = readsOutside() }
    return findings
  }

  /// The note for a lane that failed inside and passed outside.
  private func readsOutside() -> String {
    if tools.kind == .sandboxExec { return SandboxFindings.failedOnlyInsideUnnamed }
    guard tools.strace != nil, let data = FileManager.default.contents(atPath: traceFile.path) else {
      return SandboxFindings.failedOnlyInside(inTree: [], outside: [], traced: false)
    }
    let reads = FileTrace.reads(String(decoding: data, as: UTF8.self), workingDirectory: directory)
    let inputs = InputFiles.paths(lane.inputs, root: root)
    let visible = SandboxLayout.systemFolders + ["/tmp", "/dev", "/proc", "/sys"] + programFolders
      + SandboxTools.systemLinks.values.map { "/" + $0 }
    let found = SandboxFindings.undeclared(reads: reads, root: root.path, declared: inputs + needOutputs + lane.outputs,
                                           visible: visible, isFile: SandboxCollection.isRegularFile)
    return SandboxFindings.failedOnlyInside(inTree: found.inTree, outside: found.outside,
                                            traced: true)
  }
}
