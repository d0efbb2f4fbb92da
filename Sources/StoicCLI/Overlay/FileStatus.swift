public import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stat(2)` says about a path: its type, size, permission bits, owner, modification
/// time, and the device and inode that identify it (for finding its lock in `/proc/locks`).
public struct FileStatus: Sendable, Hashable {
  /// The kinds of file the tool tells apart.
  public enum Kind: Sendable, Hashable {
    /// A regular file.
    case regular
    /// A directory.
    case directory
    /// Anything else (a device, a FIFO, a socket).
    case other
  }

  /// The kind of file.
  public var kind: Kind
  /// Its size in bytes.
  public var size: UInt64
  /// The permission bits (`st_mode & 0o7777`).
  public var permissions: UInt32
  /// The owner's user id.
  public var owner: UInt32
  /// The last modification, seconds since the Unix epoch.
  public var modifiedSeconds: Int64
  /// The nanoseconds of the last modification.
  public var modifiedNanoseconds: Int64
  /// The device holding it.
  public var device: UInt64
  /// Its inode number.
  public var inode: UInt64

  /// The status of `path` (symbolic links followed), or `nil` when nothing is there.
  ///
  /// - Throws: `StoreError` with the `stat` errno for anything but a missing path.
  public static func of(_ path: String) throws(StoreError) -> FileStatus? {
    var info = stat()
    guard stat(path, &info) == 0 else {
      let error = StoreErrno(rawValue: errno)
      if error == .noSuchFile || error == .notDirectory { return nil }
      throw StoreError.system("stat", error, path: path)
    }
    let type = UInt32(info.st_mode) & UInt32(S_IFMT)
    let kind: Kind =
      type == UInt32(S_IFREG) ? .regular : type == UInt32(S_IFDIR) ? .directory : .other
    #if canImport(Darwin)
      let modified = info.st_mtimespec
    #else
      let modified = info.st_mtim
    #endif
    return FileStatus(
      kind: kind, size: UInt64(clamping: info.st_size), permissions: UInt32(info.st_mode) & 0o7777,
      owner: UInt32(info.st_uid), modifiedSeconds: Int64(modified.tv_sec),
      modifiedNanoseconds: Int64(modified.tv_nsec), device: UInt64(info.st_dev),
      inode: UInt64(info.st_ino))
  }

  /// Whether the group or others may read it (`0o044`).
  public var readableByOthers: Bool { permissions & 0o044 != 0 }

  /// `rw-r--r--` (`d` in front for a directory).
  public var permissionText: String {
    let letters: [(UInt32, Character)] = [
      (0o400, "r"), (0o200, "w"), (0o100, "x"), (0o040, "r"), (0o020, "w"), (0o010, "x"),
      (0o004, "r"), (0o002, "w"), (0o001, "x"),
    ]
    let text = String(letters.map { permissions & $0.0 != 0 ? $0.1 : "-" })
    return kind == .directory ? "d" + text : text
  }

  /// The octal permission bits, as `chmod` takes them (`0644`).
  public var octalPermissions: String {
    let digits = String(permissions, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
