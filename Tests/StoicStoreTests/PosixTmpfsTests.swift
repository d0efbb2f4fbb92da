import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Small tmpfs mounts for the tests that need a full or read-only file system.
///
/// Mounting needs root (and a kernel that lets this process mount); ``isAvailable`` finds out
/// once by trying, and the tests that need it are skipped, with a message, where it is false.
enum PosixTmpfs {
  /// Whether a tmpfs can be mounted and unmounted here (Linux, as root, `mount` allowed).
  static let isAvailable: Bool = {
    #if os(Linux)
      guard geteuid() == 0, let directory = try? PosixScratchDirectory.make() else {
        return false
      }
      defer { PosixScratchDirectory.remove(directory) }
      guard PosixCommand.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", directory]) == 0
      else { return false }
      return PosixCommand.run(["umount", directory]) == 0
    #else
      return false
    #endif
  }()

  /// Mounts a tmpfs with `options` (such as `size=64k` or `ro,size=64k`) on a scratch
  /// directory, runs `body` with its path, then unmounts it and removes the directory.
  static func withMount<Result>(options: String, _ body: (String) throws -> Result) throws
    -> Result
  {
    try PosixScratchDirectory.with { directory in
      guard PosixCommand.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", directory]) == 0
      else {
        throw PosixScratchDirectory.SetupError(description: "mount -o \(options) failed")
      }
      defer {
        if PosixCommand.run(["umount", directory]) != 0 {
          _ = PosixCommand.run(["umount", "-l", directory])
        }
      }
      return try body(directory)
    }
  }

  /// Remounts the tmpfs at `directory` with new options (`remount,ro`).
  static func remount(_ directory: String, options: String) throws {
    guard PosixCommand.run(["mount", "-o", "remount," + options, directory]) == 0 else {
      throw PosixScratchDirectory.SetupError(description: "remount,\(options) failed")
    }
  }
}

@Suite("tmpfs mounts for the POSIX tests")
struct PosixTmpfsTests {
  @Test(
    "a 64 KiB tmpfs is mounted for the body and unmounted afterwards",
    .enabled(if: PosixTmpfs.isAvailable, "needs root and permission to mount tmpfs"))
  func mountsAndUnmounts() throws {
    var mountedDevice: UInt64 = 0
    var parentDevice: UInt64 = 0
    let directory = try PosixTmpfs.withMount(options: "size=64k") { directory in
      var inside = stat()
      var parent = stat()
      #expect(stat(directory, &inside) == 0)
      #expect(stat("/tmp", &parent) == 0)
      mountedDevice = UInt64(inside.st_dev)
      parentDevice = UInt64(parent.st_dev)
      var info = statvfs()
      #expect(statvfs(directory, &info) == 0)
      #expect(UInt64(info.f_blocks) * UInt64(info.f_frsize) == 64 * 1024)
      return directory
    }
    #expect(mountedDevice != parentDevice)
    var after = stat()
    #expect(stat(directory, &after) != 0)
  }
}
