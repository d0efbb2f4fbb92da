/// The permission bits a ``FileSystem`` gives a file or directory it creates.
///
/// The store creates everything it owns private to the user it runs as: files ``privateFile``
/// (`0600`) and directories ``privateDirectory`` (`0700`), whatever the process's umask (see
/// ``PosixFileSystem``). Telemetry and queues may carry secrets; a file that is meant to be
/// shared (a settings file another program reads, for example) asks for wider bits
/// explicitly, as ``AtomicFile/Options/permissions`` does.
///
/// Only the nine permission bits are kept (`rwx` for owner, group and others); set-id and
/// sticky bits are dropped.
public struct FilePermissions: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The permission bits, at most `0o777`.
  public let rawValue: UInt16

  /// Permissions from their octal bits (`0o640`); bits above `0o777` are dropped.
  public init(rawValue: UInt16) {
    self.rawValue = rawValue & 0o777
  }

  /// `0600`: read and write for the owner, nothing for anyone else. The default of every
  /// file the store creates.
  public static let privateFile = FilePermissions(rawValue: 0o600)

  /// `0700`: the owner may list, enter and change it; nobody else may. The default of every
  /// directory the store creates.
  public static let privateDirectory = FilePermissions(rawValue: 0o700)

  /// `0644`: read and write for the owner, readable by everyone: a file meant to be shared.
  public static let readableByAll = FilePermissions(rawValue: 0o644)

  /// The permissions of a directory holding files with these: each class that may read the
  /// files may also enter the directory (`0600` gives `0700`, `0644` gives `0755`, `0640`
  /// gives `0750`).
  public var forDirectory: FilePermissions {
    FilePermissions(rawValue: rawValue | (rawValue & 0o444) >> 2)
  }

  /// Whether anyone but the owner (group or others) may read, write or enter it.
  public var isAccessibleToOthers: Bool { rawValue & 0o077 != 0 }

  /// The bits in octal with a leading zero, as `ls` users read them: `0600`.
  public var description: String {
    let octal = String(rawValue, radix: 8)
    return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
  }
}
