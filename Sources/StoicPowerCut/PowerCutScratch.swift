import Foundation

/// The power cuts' own corner of the machine: a folder for images, mounts and bookkeeping,
/// held by one run at a time.
///
/// Loop devices, mounts and the `vm` sysctls belong to the whole machine, so runs (from this
/// process or another) take an exclusive lock on `<root>/lock` and wait for each other. While
/// a run holds the lock, anything mounted or attached under `<root>` is a leftover of a run
/// that died: ``acquire(root:)`` unmounts and detaches it, puts back the writeback settings a
/// dead run held, and empties `<root>/run`.
package final class PowerCutScratch: Sendable {
  /// The default root: `STOIC_POWERCUT_DIRECTORY`, or `/dev/shm/stoic-powercut` where
  /// `/dev/shm` is a tmpfs, else `/var/tmp/stoic-powercut`.
  ///
  /// Images in memory change nothing the cuts check: a copy of an image holds what the loop
  /// device was given, wherever the image lives. They only make the loop device's flushes
  /// cheap (a sync of a tmpfs file does nothing), where on a disk each flush of the file
  /// system under test would sync the image file on the host's disk as well.
  package static var defaultRoot: String {
    if let root = ProcessInfo.processInfo.environment["STOIC_POWERCUT_DIRECTORY"] { return root }
    let mounts = PowerCutHost.readText("/proc/self/mountinfo") ?? ""
    let shmIsTmpfs = mounts.split(separator: "\n").contains { line in
      let halves = line.components(separatedBy: " - ")
      let fields = halves[0].split(separator: " ")
      return halves.count == 2 && fields.count > 4 && fields[4] == "/dev/shm"
        && halves[1].hasPrefix("tmpfs ")
    }
    return shmIsTmpfs ? "/dev/shm/stoic-powercut" : "/var/tmp/stoic-powercut"
  }

  /// Where failing cuts are kept: `STOIC_POWERCUT_KEEP`, or `/var/tmp/stoic-powercut-kept`
  /// (outside the root, so no cleanup ever removes them).
  package static var keptRoot: String {
    ProcessInfo.processInfo.environment["STOIC_POWERCUT_KEEP"] ?? "/var/tmp/stoic-powercut-kept"
  }

  /// The root folder.
  package let root: String
  /// What the leftover cleanup found and undid, for the log.
  package let cleaned: [String]
  private let lockDescriptor: Int32

  /// Images, mounts and acknowledgement files of this run.
  package var runDirectory: String { root + "/run" }
  /// The lock file.
  package var lockPath: String { root + "/lock" }
  /// Where the writeback settings found are saved while held.
  package var savedWriteback: String { root + "/writeback.saved" }

  private init(root: String, lockDescriptor: Int32, cleaned: [String]) {
    self.root = root
    self.lockDescriptor = lockDescriptor
    self.cleaned = cleaned
  }

  /// Takes the lock (waiting while another run holds it) and cleans up what a dead run left.
  ///
  /// - Throws: ``PowerCutError`` when the lock cannot be taken or a leftover cannot be undone
  ///   (the lock is released again).
  package static func acquire(root: String = defaultRoot) throws(PowerCutError) -> PowerCutScratch {
    try PowerCutHost.makeDirectory(root)
    let descriptor = open(root + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw PowerCutError("cannot open \(root)/lock: errno \(errno)") }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        close(descriptor)
        throw PowerCutError("cannot lock \(root)/lock: errno \(errno)")
      }
    }
    do throws(PowerCutError) {
      let cleaned = try cleanLeftovers(root: root)
      return PowerCutScratch(root: root, lockDescriptor: descriptor, cleaned: cleaned)
    } catch {
      close(descriptor)
      throw error
    }
  }

  deinit { close(lockDescriptor) }

  /// Unmounts every mount under `root` (deepest first), detaches every loop device backed by
  /// a file under it, restores held writeback settings, and empties the run folder.
  private static func cleanLeftovers(root: String) throws(PowerCutError) -> [String] {
    var cleaned: [String] = []
    let prefix = root + "/"
    for mountPoint in mountPoints().filter({ $0.hasPrefix(prefix) }).sorted(by: { $0 > $1 }) {
      if (try? PowerCutHost.run("umount", [mountPoint])) == nil {
        try PowerCutHost.run("umount", ["-l", mountPoint])
      }
      cleaned.append("unmounted \(mountPoint)")
    }
    for (device, backing) in loopDevices() where backing.hasPrefix(prefix) {
      try PowerCutHost.run("losetup", ["-d", device])
      cleaned.append("detached \(device) (\(backing))")
    }
    for restored in try PowerCutWritebackHold.restoreLeftover(savedAt: root + "/writeback.saved") {
      cleaned.append("restored \(restored)")
    }
    try PowerCutHost.remove(root + "/run")
    try PowerCutHost.makeDirectory(root + "/run")
    return cleaned
  }

  /// Every mount point on the machine, from `/proc/self/mountinfo` (octal escapes decoded).
  package static func mountPoints() -> [String] {
    let text = PowerCutHost.readText("/proc/self/mountinfo") ?? ""
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ")
      return fields.count > 4 ? unescape(fields[4]) : nil
    }
  }

  /// `\040`-style octal escapes of `/proc` decoded.
  static func unescape(_ field: Substring) -> String {
    var bytes: [UInt8] = []
    let source = Array(field.utf8)
    var index = 0
    while index < source.count {
      if source[index] == UInt8(ascii: "\\"), index + 3 < source.count,
        let value = UInt8(
          String(decoding: source[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
      {
        bytes.append(value)
        index += 4
      } else {
        bytes.append(source[index])
        index += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Every attached loop device and its backing file (`/sys/block/loop*/loop/backing_file`,
  /// without the ` (deleted)` the kernel adds for a removed file).
  package static func loopDevices() -> [(device: String, backing: String)] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/block")) ?? []
    return names.filter { $0.hasPrefix("loop") }.sorted().compactMap { name in
      guard var backing = PowerCutHost.readText("/sys/block/\(name)/loop/backing_file") else {
        return nil
      }
      backing = backing.trimmingCharacters(in: .newlines)
      if backing.hasSuffix(" (deleted)") { backing.removeLast(" (deleted)".count) }
      return ("/dev/" + name, backing)
    }
  }
}
