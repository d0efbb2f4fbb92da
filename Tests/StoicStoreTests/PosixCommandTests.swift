import Foundation
import Testing

/// Runs a program (found on `PATH`) for the POSIX tests: `mount`, `umount`, `flock`.
enum PosixCommand {
  /// Runs `arguments[0]` with the rest as its arguments, discarding its output.
  ///
  /// - Returns: The exit status, or -1 if it could not be started.
  static func run(_ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = Foundation.FileHandle.nullDevice
    process.standardError = Foundation.FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      return -1
    }
    process.waitUntilExit()
    return process.terminationStatus
  }
}

@Suite("Commands for the POSIX tests")
struct PosixCommandTests {
  @Test("a command's exit status is returned")
  func exitStatus() {
    #expect(PosixCommand.run(["true"]) == 0)
    #expect(PosixCommand.run(["false"]) == 1)
    #expect(PosixCommand.run(["sh", "-c", "exit 75"]) == 75)
  }
}
