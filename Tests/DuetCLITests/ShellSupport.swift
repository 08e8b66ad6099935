import Foundation

/// Runs `/bin/sh -c command` in `folder`; stdout and stderr together.
func shell(_ command: String, in folder: URL, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  process.currentDirectoryURL = folder
  var env = ProcessInfo.processInfo.environment
  for (key, value) in environment { env[key] = value }
  process.environment = env
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = pipe
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
