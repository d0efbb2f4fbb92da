import BenchKit
import Foundation

/// The parent side of the replay scenarios: re-executes this binary with the hidden
/// `--replay-child` flag and reads its report.
enum ReplayLauncher {
  static func replay(directory: String, runs: Int) throws -> ReplayChildReport {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--replay-child", directory, "--runs", String(runs)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError("replay child exited with status \(process.terminationStatus)")
    }
    return try JSONDecoder().decode(ReplayChildReport.self, from: data)
  }
}
