import Foundation
import DuetModel
import DuetSandbox
import DuetSupport

/// Which lanes of a run go into the sandbox, and the tools that put them
/// there: `--sandbox` puts every shell lane in; otherwise a lane's own
/// `sandbox:` or the manifest's decides. A built-in runs inside duet, unsandboxed.
enum SandboxPlan {
  static func isSandboxed(_ lane: Lane, manifest: Manifest, options: VerifyOptions) -> Bool {
    guard !lane.isBuiltin else { return false }
    return options.sandbox || (lane.sandbox ?? manifest.sandbox)
  }

  /// bubblewrap and strace when some lane runs sandboxed; a usage error
  /// (exit 2) naming what to install when bubblewrap is missing.
  static func tools(manifest: Manifest, options: VerifyOptions, environment: [String: String]) throws(UsageError) -> SandboxTools? {
    guard manifest.lanes.contains(where: { isSandboxed($0, manifest: manifest, options: options) }) else { return nil }
    switch SandboxTools.find(path: environment[.path] ?? "/usr/bin:/bin") {
    case .success(let tools): return tools
    case .failure(let error): throw error
    }
  }
}

extension VerifyPlan {
  /// The sandbox of one attempt of a sandboxed shell lane; nil for any other.
  func sandboxedStep(for request: StepRequest) -> SandboxedStep? {
    let lane = request.lane
    guard let tools = sandboxTools, case .shell(let command) = lane.step,
          SandboxPlan.isSandboxed(lane, manifest: manifest, options: options) else { return nil }
    let needOutputs = manifest.graph.needs[request.index].flatMap { manifest.lanes[$0].outputs }
    guard let scratch = sandboxScratch else { return nil }
    return SandboxedStep(lane: lane, tools: tools, root: root, scratch: scratch, directory: request.workingDirectory.path,
                         command: command, environment: request.environment, needOutputs: needOutputs)
  }
}
