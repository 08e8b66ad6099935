import Foundation
import DuetModel
import DuetProcess
import DuetSupport

/// One attempt of a shell lane run under bubblewrap (issue 56): its scratch
/// folder under `.duet/sandbox/`, made on a worker before it starts; what it
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
  /// `.duet/sandbox/<run>.<lane>.<attempt>`: the scratch tree and bubblewrap's files.
  let folder: URL
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

  init(lane: Lane, tools: SandboxTools, root: URL, folder: URL, directory: String, command: String,
               environment: [String: String], needOutputs: [String]) {
    self.lane = lane
    self.tools = tools
    self.root = root
    self.folder = folder
    self.directory = directory
    self.command = command
    var environment = environment
    // The host's TMPDIR may be a folder the sandbox does not show.
    if environment["TMPDIR"] != nil { environment["TMPDIR"] = "/tmp" }
    self.environment = environment
    self.needOutputs = needOutputs
    self.programFolders = SandboxTools.folders(of: lane.requires, path: environment[.path] ?? "/usr/bin:/bin")
  }

  var staging: URL { folder.appendingPathComponent("tree") }
  var statusFile: URL { folder.appendingPathComponent("status.json") }
  var traceFile: URL { folder.appendingPathComponent("trace.txt") }
  /// The log of the run outside the sandbox, beside the attempt's own.
  var outsideLogName: String { "\(lane.name).outside-sandbox.log" }

  /// Makes the scratch tree (the lane's folder and its outputs' folders in
  /// it) and bubblewrap's arguments; on a worker, before the attempt starts.
  func prepare() {
    do {
      let manager = FileManager.default
      try? manager.removeItem(at: folder)
      try manager.createDirectory(at: staging, withIntermediateDirectories: true)
      let relativeDirectory = lane.dir ?? ""
      var folders = [relativeDirectory] + lane.outputs.map { ($0 as NSString).deletingLastPathComponent }
      folders += lane.reports.map { pattern in Glob(pattern).segments.prefix { !$0.contains(where: { "*?[".contains($0) }) }.dropLast().joined(separator: "/") }
      for path in Set(folders) where !path.isEmpty {
        try manager.createDirectory(at: staging.appendingPathComponent(path), withIntermediateDirectories: true)
      }
      let inputs = InputFiles.collect(lane.inputs, root: root).files.map(\.path)
      let rootPath = root.path
      let duetFiles = environment.values.filter { $0.hasPrefix(rootPath + "/.duet/") }.sorted()
      let layout = SandboxLayout.make(root: rootPath, staging: staging.path, files: inputs, needOutputs: needOutputs,
                                      programFolders: programFolders, duetFiles: duetFiles, links: SandboxTools.systemLinks)
      self.layout = layout
      let arguments = BubblewrapArguments.make(layout, network: lane.network, directory: directory, command: command)
      // bubblewrap reports its start on descriptor 4, opened by the shell; a
      // lane of many inputs hands its options on descriptor 3 instead of the
      // command line (no argv limit), in a file written only then.
      var script = "b=$0 s=$1; shift; exec \"$b\" \"$@\" \(BubblewrapArguments.statusDescriptor)>\"$s\""
      var words = arguments
      if arguments.reduce(0, { $0 + $1.utf8.count + 1 }) > SandboxedStep.commandLineLimit {
        let file = folder.appendingPathComponent("bwrap-arguments")
        try AtomicFile.write(Data(arguments.dropLast(3).map { $0 + "\0" }.joined().utf8), toAbsolute: file.path)
        script = "b=$0 s=$1 a=$2; shift 2; exec \"$b\" --args 3 \"$@\" 3<\"$a\" \(BubblewrapArguments.statusDescriptor)>\"$s\""
        words = [file.path] + arguments.suffix(3)
      }
      spec = SpawnSpec(path: "/bin/sh", arguments: ["/bin/sh", "-c", script, tools.bubblewrap, statusFile.path] + words,
                       directory: root.path, environment: self.environment)
    } catch {
      problem = "the sandbox could not be made in \(folder.path): \(error.localizedDescription)"
    }
  }

  /// Whether bubblewrap started the lane's process (it reported `child-pid`).
  var started: Bool {
    guard let data = FileManager.default.contents(atPath: statusFile.path) else { return false }
    return String(decoding: data, as: UTF8.self).contains("\"child-pid\"")
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
    defer { try? FileManager.default.removeItem(at: folder) }
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
    guard tools.strace != nil, let data = FileManager.default.contents(atPath: traceFile.path) else {
      return SandboxFindings.failedOnlyInside(inTree: [], outside: [], traced: false)
    }
    let reads = FileTrace.reads(String(decoding: data, as: UTF8.self), workingDirectory: directory)
    let inputs = InputFiles.collect(lane.inputs, root: root).files.map(\.path)
    let visible = SandboxLayout.systemFolders + ["/tmp", "/dev", "/proc", "/sys"] + programFolders
      + SandboxTools.systemLinks.values.map { "/" + $0 }
    let found = SandboxFindings.undeclared(reads: reads, root: root.path, declared: inputs + needOutputs + lane.outputs,
                                           visible: visible, isFile: SandboxCollection.isRegularFile)
    return SandboxFindings.failedOnlyInside(inTree: found.inTree.map(ControlText.shown), outside: found.outside.map(ControlText.shown),
                                            traced: true)
  }
}
