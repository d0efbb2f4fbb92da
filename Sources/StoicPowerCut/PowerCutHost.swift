import Foundation

/// The machine the power cuts run on: who we are, which tools it has, and the commands run on
/// it (`losetup`, `mount`, `mkfs.*`, `cp`, `apt-get`).
package enum PowerCutHost {
  /// Whether this process runs as root (loop devices, mounts and the `vm` sysctls need it).
  package static var isRoot: Bool { geteuid() == 0 }

  /// Where tools are looked for, beyond `PATH`: root's tools live in the `sbin` folders.
  static let extraToolDirectories = ["/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/bin", "/bin"]

  /// The absolute path of `tool`, or nil when it is not installed.
  package static func which(_ tool: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let directories = path.split(separator: ":").map(String.init) + extraToolDirectories
    for directory in directories where !directory.isEmpty {
      let candidate = directory + "/" + tool
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs `tool` with `arguments` and waits for it; returns what it printed on standard output.
  ///
  /// - Parameter timeoutSeconds: When set, the tool is killed (`SIGKILL`) if it runs longer.
  /// - Throws: ``PowerCutError`` naming the command, its exit status, its standard error and
  ///   what it printed when it is missing, exits with a status other than 0, dies of a signal
  ///   or times out.
  @discardableResult
  package static func run(_ tool: String, _ arguments: [String], timeoutSeconds: Int? = nil)
    throws(PowerCutError) -> String
  {
    guard let executable = tool.hasPrefix("/") ? tool : which(tool) else {
      throw PowerCutError("\(tool) is not installed")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["DEBIAN_FRONTEND"] = "noninteractive"
    environment["LC_ALL"] = "C"
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw PowerCutError("cannot start \(tool): \(error)")
    }
    // Standard error is read on another thread so that neither pipe can fill up and stall.
    let errorText = PowerCutShared("")
    let reading = DispatchGroup()
    DispatchQueue.global().async(group: reading) {
      let data = error.fileHandleForReading.readDataToEndOfFile()
      errorText.update { $0 = String(decoding: data, as: UTF8.self) }
    }
    let timedOut = PowerCutShared(false)
    if let timeoutSeconds {
      let identifier = process.processIdentifier
      DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(timeoutSeconds)) {
        if kill(identifier, 0) == 0 {
          timedOut.update { $0 = true }
          kill(identifier, SIGKILL)
        }
      }
    }
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    reading.wait()
    let stdout = String(decoding: outputData, as: UTF8.self)
    let command = ([tool] + arguments).joined(separator: " ")
    guard !timedOut.value else {
      throw PowerCutError("\(command) did not finish within \(timeoutSeconds ?? 0) s")
    }
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      let stderr = errorText.value.trimmingCharacters(in: .whitespacesAndNewlines)
      let ending = process.terminationReason == .exit ? "exited with status" : "died of signal"
      let printed = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
      throw PowerCutError(
        "\(command) \(ending) \(process.terminationStatus): \(stderr)"
          + (printed.isEmpty ? "" : "; it printed: \(printed.suffix(4000))"))
    }
    return stdout
  }

  /// Starts `arguments` (a program's absolute path and its arguments) holding nothing of this
  /// process: standard input and output on `/dev/null`, every other descriptor closed, and
  /// waits for it to exit (a program that detaches, like `setsid --fork`, returns at once).
  ///
  /// Not `Process`: it hands the child a descriptor of its own and waits until every holder
  /// of it is gone, and a child that outlives this process could hold the pipes of any other
  /// command this process is reading at that moment.
  package static func spawnDetached(_ arguments: [String]) throws(PowerCutError) {
    #if os(Linux)
      try spawnDetachedOnLinux(arguments)
    #else
      throw PowerCutError("detached processes are started on Linux only")
    #endif
  }

  #if os(Linux)
    private static func spawnDetachedOnLinux(_ arguments: [String]) throws(PowerCutError) {
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
        posix_spawn_file_actions_addclose(&actions, descriptor)
      }
      let strings = arguments.map { strdup($0) }
      let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") }
      defer { for string in strings + environment { free(string) } }
      var pid: pid_t = 0
      let result = posix_spawn(
        &pid, arguments[0], &actions, nil, strings + [nil], environment + [nil])
      guard result == 0 else {
        throw PowerCutError("cannot start \(arguments[0]): errno \(result)")
      }
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      guard status == 0 else {
        throw PowerCutError("\(arguments[0]) ended with wait status \(status)")
      }
    }
  #endif

  /// The text of the file at `path`, or nil when it cannot be read.
  package static func readText(_ path: String) -> String? {
    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Writes `text` to the file at `path` in place with one `write(2)`, creating or cutting
  /// it first: also right for the files under `/proc/sys`, which cannot be replaced by a
  /// rename. No sync: these files are bookkeeping outside the images.
  package static func writeText(_ text: String, to path: String) throws(PowerCutError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw PowerCutError("cannot open \(path): errno \(errno)") }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == bytes.count else {
      throw PowerCutError("cannot write \(path): errno \(errno)")
    }
  }

  /// Creates `path` and its parents (nothing when it exists).
  package static func makeDirectory(_ path: String) throws(PowerCutError) {
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw PowerCutError("cannot create \(path): \(error)")
    }
  }

  /// Removes `path` and everything under it; nothing when it is missing.
  package static func remove(_ path: String) throws(PowerCutError) {
    guard FileManager.default.fileExists(atPath: path) else { return }
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      throw PowerCutError("cannot remove \(path): \(error)")
    }
  }

  /// Copies an image the way a power cut leaves it: every byte the loop device was given,
  /// holes kept as holes (`cp --sparse=always`).
  package static func copyImage(_ source: String, to destination: String) throws(PowerCutError) {
    try run("cp", ["--sparse=always", source, destination])
  }

  /// Sleeps for `milliseconds`.
  package static func sleep(milliseconds: Int) {
    guard milliseconds > 0 else { return }
    usleep(UInt32(min(milliseconds, 4_000_000)) * 1000)
  }
}
