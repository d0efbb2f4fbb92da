import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A third-party tool or one of the package's executables, run as a child process with its
/// standard output and errors in one log file; killed when the value goes away, so a failing
/// test leaves no process behind.
///
/// Started with `posix_spawn` and an empty signal mask, every signal at its default: the test
/// process blocks SIGTERM and SIGINT on its threads, and a child started with `Process`
/// inherits that mask, so a tool that waits for SIGTERM to shut down cleanly (Rotel) never
/// sees it.
final class PeerProcess {
  let name: String
  let logPath: String
  let pid: pid_t
  private var status: Int32?

  /// Starts the executable at `path` with `arguments`, `environment` added to this process's.
  init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
    name = URL(fileURLWithPath: path).lastPathComponent
    logPath = NSTemporaryDirectory() + "stoic-interop-\(name)-" + UUID().uuidString + ".log"
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      .map { "\($0.key)=\($0.value)" }
    var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var child: pid_t = 0
    let result = posix_spawn(&child, path, &actions, &attributes, &argv, &envp)
    guard result == 0 else { throw InteropFailure("cannot start \(path): errno \(result)") }
    pid = child
  }

  deinit {
    if isRunning {
      kill(pid, SIGKILL)
      reap(blocking: true)
    }
    try? FileManager.default.removeItem(atPath: logPath)
  }

  /// What the process wrote so far.
  var log: String {
    String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self)
  }

  /// Whether the process has not ended yet.
  var isRunning: Bool {
    reap(blocking: false)
    return status == nil
  }

  /// Whether the process ended by a signal.
  var endedBySignal: Bool {
    guard let status else { return false }
    return status & 0x7f != 0 && status & 0x7f != 0x7f
  }

  /// The exit status, if the process ended by itself.
  var exitStatus: Int32? {
    guard let status, status & 0x7f == 0 else { return nil }
    return (status >> 8) & 0xff
  }

  private func reap(blocking: Bool) {
    guard status == nil else { return }
    var raw: Int32 = 0
    var result: pid_t
    repeat {
      result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
    } while result < 0 && errno == EINTR
    if result == pid { status = raw }
  }

  /// The executable `swift build` put beside the test bundle (`stoic-agent`).
  static func built(_ name: String) -> String {
    var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent(name).path
  }

  /// Waits up to `seconds` for the process to end by itself; its exit status, or nil if it
  /// did not end by exiting (it is then killed).
  func wait(seconds: Double) async -> Int32? {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while isRunning && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
    guard !isRunning else {
      await stop(SIGKILL)
      return nil
    }
    return exitStatus
  }

  /// Sends `signal`, waits up to 20 s for the process to end (then kills it), and returns
  /// whether it ended within that time.
  @discardableResult
  func stop(_ signal: Int32) async -> Bool {
    if isRunning { kill(pid, signal) }
    let deadline = ContinuousClock.now + .seconds(20)
    while isRunning && ContinuousClock.now < deadline {
      try? await Task.sleep(for: .milliseconds(20))
    }
    let ended = !isRunning
    if !ended {
      kill(pid, SIGKILL)
      reap(blocking: true)
    }
    return ended
  }
}
