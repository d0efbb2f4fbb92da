import Foundation

/// A small tmpfs mounted for a test that needs a real file system that fills up.
///
/// Mounting needs root and a kernel that lets this process mount; ``isAvailable`` finds out once
/// by trying, and the tests that need it are skipped where it is false.
enum Tmpfs {
  /// Whether a tmpfs can be mounted and unmounted here.
  static let isAvailable: Bool = {
    #if os(Linux)
      guard geteuid() == 0 else { return false }
      return (try? withMount(size: "64k") { _ in true }) ?? false
    #else
      return false
    #endif
  }()

  /// Runs a program found on `PATH`, discarding its output; its exit status, or -1.
  static func run(_ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = Foundation.FileHandle.nullDevice
    process.standardError = Foundation.FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Mounts a tmpfs of `size` (`512k`, `8m`) on a scratch directory, runs `body` with its path,
  /// then unmounts it.
  static func withMount<Result>(size: String, _ body: (String) throws -> Result) throws -> Result {
    try ScratchDirectory.with { directory in
      guard run(["mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", directory]) == 0 else {
        throw CheckFailure("mount -o size=\(size) failed")
      }
      defer {
        if run(["umount", directory]) != 0 { _ = run(["umount", "-l", directory]) }
      }
      return try body(directory)
    }
  }

  /// Gives the tmpfs at `directory` a new size.
  static func remount(_ directory: String, size: String) throws {
    guard run(["mount", "-o", "remount,size=\(size)", directory]) == 0 else {
      throw CheckFailure("remount,size=\(size) failed")
    }
  }
}
