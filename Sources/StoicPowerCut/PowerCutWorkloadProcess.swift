import Foundation

/// A workload running in its own process (`stoic-powercut-workload run`), which a cut stops,
/// and then kills.
package final class PowerCutWorkloadProcess {
  private let process: Process
  /// Where its standard output and error go.
  package let logPath: String

  /// Starts `executable run --workload <name> --directory <directory> --acks <acks>
  /// --seed <seed>`, its output going to `logPath`.
  package init(
    executable: String, workload: String, directory: String, acknowledgements: String,
    seed: UInt64, logPath: String
  ) throws(PowerCutError) {
    self.logPath = logPath
    process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = [
      "run", "--workload", workload, "--directory", directory, "--acks", acknowledgements,
      "--seed", String(seed),
    ]
    do {
      try PowerCutHost.writeText("", to: logPath)
      let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
      process.standardOutput = log
      process.standardError = log
      process.standardInput = FileHandle.nullDevice
      try process.run()
    } catch let error as PowerCutError {
      throw error
    } catch {
      throw PowerCutError("cannot start \(executable): \(error)")
    }
  }

  /// The process id.
  package var identifier: Int32 { process.processIdentifier }

  /// Whether it still runs (or is stopped).
  package var isRunning: Bool { process.isRunning }

  /// How it ended, for messages.
  package var ending: String {
    let reason = process.terminationReason == .exit ? "exited with status" : "died of signal"
    let log = PowerCutHost.readText(logPath)?.suffix(2000) ?? ""
    return "\(reason) \(process.terminationStatus); its output: \(log)"
  }

  /// Stops it with `SIGSTOP` and waits until every one of its threads has stopped: a thread
  /// inside a system call (a sync) finishes it first.
  ///
  /// - Throws: ``PowerCutError`` when it is gone, or not stopped after `timeoutMilliseconds`.
  package func stop(timeoutMilliseconds: Int = 10_000) throws(PowerCutError) {
    guard kill(identifier, SIGSTOP) == 0 else {
      throw PowerCutError("cannot stop the workload: errno \(errno)")
    }
    var waited = 0
    while !allThreadsStopped() {
      guard waited < timeoutMilliseconds else {
        throw PowerCutError("the workload's threads had not all stopped after \(waited) ms")
      }
      PowerCutHost.sleep(milliseconds: 1)
      waited += 1
    }
  }

  /// Kills it with `SIGKILL` and reaps it.
  package func killAndReap() {
    if process.isRunning { _ = kill(identifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// Whether every thread in `/proc/<pid>/task` is stopped (`T`), or gone.
  private func allThreadsStopped() -> Bool {
    let taskDirectory = "/proc/\(identifier)/task"
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: taskDirectory)
    else { return !process.isRunning }
    for thread in threads {
      guard let stat = PowerCutHost.readText("\(taskDirectory)/\(thread)/stat") else { continue }
      // The state follows the command name, which is in parentheses and may hold anything.
      guard let close = stat.lastIndex(of: ")") else { return false }
      let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
      guard let state, "TtZX".contains(state) else { return false }
    }
    return true
  }
}
