import Foundation
import StoicStore
import Synchronization

/// A kernel file system the power cuts run on, and how its images are made and mounted.
package enum PowerCutFileSystem: String, CaseIterable, Sendable, CustomStringConvertible {
  case ext4
  case xfs
  case btrfs

  /// `ext4`, `xfs` or `btrfs`.
  package var description: String { rawValue }

  /// The image's size. Images are sparse: only what the file system writes takes room. xfs
  /// needs at least 512 MiB for its log to behave as on a real disk.
  package var imageSize: UInt64 {
    switch self {
    case .ext4: 256 << 20
    case .xfs: 512 << 20
    case .btrfs: 256 << 20
    }
  }

  /// The program that makes the file system.
  package var mkfsTool: String { "mkfs." + rawValue }

  /// Its arguments before the image's path. ext4 initialises its inode tables and journal at
  /// once, so no background thread of the kernel writes to the device during a cut.
  package var mkfsArguments: [String] {
    switch self {
    case .ext4: ["-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0"]
    case .xfs: ["-q", "-f"]
    case .btrfs: ["-q", "-f"]
    }
  }

  /// Mount options of the image the workload runs on: writeback held back beyond the `vm`
  /// sysctls (ext4's and btrfs's periodic commit at an hour), no discards on btrfs.
  package var workloadMountOptions: String? {
    switch self {
    case .ext4: "commit=3600"
    case .xfs: nil
    case .btrfs: "commit=3600,nodiscard"
    }
  }

  /// Mount options of a cut's copy, mounted while the original still is: xfs refuses a second
  /// file system with the same UUID unless told not to check (btrfs gives a single-device copy
  /// a temporary identity by itself).
  package var copyMountOptions: String? {
    switch self {
    case .ext4: nil
    case .xfs: "nouuid"
    case .btrfs: "nodiscard"
    }
  }

  /// The Debian package holding ``mkfsTool``.
  package var package: String {
    switch self {
    case .ext4: "e2fsprogs"
    case .xfs: "xfsprogs"
    case .btrfs: "btrfs-progs"
    }
  }

  /// What this machine lacks to cut power on this file system, or nil when it has everything:
  /// root, loop devices, `losetup`, `mount`, `umount`, `cp`, the `vm` sysctls, the kernel's
  /// support and ``mkfsTool``. A missing ``package`` is installed with `apt-get` first, the way
  /// `scripts/bootstrap` does.
  package var missingRequirement: String? {
    PowerCutFileSystem.requirements.withLock { known in
      if let answer = known[self] { return answer }
      let answer = findMissingRequirement()
      known[self] = answer
      return answer
    }
  }

  /// The answers of ``missingRequirement``, found once per process.
  private static let requirements = SleepingLock<[PowerCutFileSystem: String?]>([:])

  private func findMissingRequirement() -> String? {
    #if os(Linux)
      guard PowerCutHost.isRoot else { return "not running as root (loop devices and mounts)" }
      guard FileManager.default.fileExists(atPath: "/dev/loop-control") else {
        return "no loop devices (/dev/loop-control is missing)"
      }
      for tool in ["losetup", "mount", "umount", "cp"] where PowerCutHost.which(tool) == nil {
        return "\(tool) is not installed"
      }
      for setting in PowerCutWritebackHold.settings
      where !FileManager.default.isWritableFile(atPath: setting.path) {
        return "\(setting.path) cannot be written"
      }
      if PowerCutHost.which(mkfsTool) == nil { PowerCutFileSystem.install(package) }
      guard PowerCutHost.which(mkfsTool) != nil else {
        return "\(mkfsTool) is missing and \(package) could not be installed with apt-get"
      }
      guard kernelSupports else { return "the kernel has no \(rawValue) support" }
      return nil
    #else
      return "power cuts need Linux loop devices"
    #endif
  }

  /// Whether the kernel lists this file system, after asking `modprobe` to load it.
  private var kernelSupports: Bool {
    func listed() -> Bool {
      let text = PowerCutHost.readText("/proc/filesystems") ?? ""
      return text.split(separator: "\n").contains { $0.split(separator: "\t").last == "\(self)" }
    }
    if listed() { return true }
    _ = try? PowerCutHost.run("modprobe", [rawValue])
    return listed()
  }

  /// Installs a Debian package the way `scripts/bootstrap` does: `apt-get install`, and
  /// after an `apt-get update` if the first attempt fails. Failures are left to the caller to
  /// notice (the tool is still missing).
  private static func install(_ package: String) {
    guard PowerCutHost.which("apt-get") != nil else { return }
    let install = ["install", "-y", "-qq", package]
    if (try? PowerCutHost.run("apt-get", install)) != nil { return }
    _ = try? PowerCutHost.run("apt-get", ["update", "-qq"])
    _ = try? PowerCutHost.run("apt-get", install)
  }
}
