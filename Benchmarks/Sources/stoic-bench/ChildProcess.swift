import BenchKit
import CBenchSystem
import Foundation

/// A child process started with `posix_spawn` and reaped with `wait4`, so that its own CPU time
/// and peak resident memory are known, and that can be SIGKILLed at any moment.
struct ChildProcess {
  /// How a child ended, with its own accounting.
  struct Exit {
    /// The exit code, or nil when a signal ended it.
    let code: Int32?
    let signal: Int32
    let cpuSeconds: Double
    let peakRSSBytes: Int
  }

  let pid: Int32

  /// This benchmark's own executable (children re-execute it with a hidden flag).
  static var benchmark: String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
  }

  /// Starts `executable` with `arguments`; its standard output goes to the file `output` and
  /// its standard error to the file `errors` when given (created or truncated), else where
  /// this process's go.
  static func spawn(
    _ executable: String, _ arguments: [String], output: String? = nil, errors: String? = nil
  ) throws -> ChildProcess {
    func create(_ path: String?) throws -> Int32 {
      guard let path else { return -1 }
      let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
      guard descriptor >= 0 else { throw BenchError("cannot create \(path)") }
      return descriptor
    }
    let outputDescriptor = try create(output)
    defer { if outputDescriptor >= 0 { close(outputDescriptor) } }
    let errorDescriptor = try create(errors)
    defer { if errorDescriptor >= 0 { close(errorDescriptor) } }
    let argv = ([executable] + arguments).map { strdup($0) }
    defer { for argument in argv { free(argument) } }
    let pid = (argv + [nil]).withUnsafeBufferPointer { buffer in
      stoic_bench_spawn(executable, buffer.baseAddress, outputDescriptor, errorDescriptor)
    }
    guard pid > 0 else { throw BenchError("cannot start \(executable)") }
    return ChildProcess(pid: pid)
  }

  /// Sends `signal` (SIGKILL by default).
  func kill(_ signal: Int32 = SIGKILL) {
    _ = Glibc.kill(pid, signal)
  }

  /// Waits for the child to end.
  func wait() throws -> Exit {
    var status: Int32 = 0
    var cpu = 0.0
    var rss = 0
    guard stoic_bench_wait(pid, &status, &cpu, &rss) == 0 else {
      throw BenchError("wait4 failed for child \(pid)")
    }
    let code = stoic_bench_exited(status)
    return Exit(
      code: code >= 0 ? code : nil, signal: stoic_bench_signal(status), cpuSeconds: cpu,
      peakRSSBytes: rss * 1024)
  }

  /// Waits for the child and fails unless it exited with 0.
  @discardableResult
  func succeed(_ what: String) throws -> Exit {
    let exit = try wait()
    guard exit.code == 0 else {
      throw BenchError(
        "\(what) ended with \(exit.code.map { "status \($0)" } ?? "signal \(exit.signal)")")
    }
    return exit
  }

  /// CPU seconds the child has used so far (`/proc/PID/stat`), for a child still running.
  func cpuSecondsSoFar() -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
      return 0
    }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
