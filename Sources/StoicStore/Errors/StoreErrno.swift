#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A POSIX error number, as a value with names for the ones the store classifies.
///
/// Modelled on swift-system's `StoreErrno`: a struct rather than an enum, so that every value the
/// kernel can return is representable, and the named constants read well at the call site.
public struct StoreErrno: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The raw `errno` value.
  public let rawValue: Int32

  /// Wraps a raw `errno` value.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The current thread's `errno`.
  static var current: StoreErrno { StoreErrno(rawValue: errno) }

  /// `ENOSPC`: no space left on the device.
  public static let noSpace = StoreErrno(rawValue: ENOSPC)
  /// `EROFS`: the file system is read-only.
  public static let readOnlyFileSystem = StoreErrno(rawValue: EROFS)
  /// `EDQUOT`: the user's disk quota is exhausted.
  public static let quotaExceeded = StoreErrno(rawValue: EDQUOT)
  /// `EACCES`: permission denied.
  public static let permissionDenied = StoreErrno(rawValue: EACCES)
  /// `EPERM`: operation not permitted.
  public static let notPermitted = StoreErrno(rawValue: EPERM)
  /// `ENOENT`: no such file or directory.
  public static let noSuchFile = StoreErrno(rawValue: ENOENT)
  /// `EEXIST`: the file exists.
  public static let fileExists = StoreErrno(rawValue: EEXIST)
  /// `EINVAL`: invalid argument.
  public static let invalidArgument = StoreErrno(rawValue: EINVAL)
  /// `EIO`: an input/output error from the device.
  public static let ioError = StoreErrno(rawValue: EIO)
  /// `EINTR`: the call was interrupted by a signal.
  public static let interrupted = StoreErrno(rawValue: EINTR)
  /// `EAGAIN`: the resource is temporarily unavailable (also `EWOULDBLOCK`).
  public static let resourceTemporarilyUnavailable = StoreErrno(rawValue: EAGAIN)
  /// `EBUSY`: the device or resource is busy.
  public static let busy = StoreErrno(rawValue: EBUSY)
  /// `EMFILE`: the process has too many open files.
  public static let tooManyOpenFiles = StoreErrno(rawValue: EMFILE)
  /// `ENFILE`: the system has too many open files.
  public static let tooManyOpenFilesInSystem = StoreErrno(rawValue: ENFILE)
  /// `ENOMEM`: the kernel could not allocate memory.
  public static let noMemory = StoreErrno(rawValue: ENOMEM)
  /// `ENOTSUP`: the operation is not supported (for example `F_FULLFSYNC` on some file systems).
  public static let notSupported = StoreErrno(rawValue: ENOTSUP)
  /// `EISDIR`: the path is a directory.
  public static let isDirectory = StoreErrno(rawValue: EISDIR)
  /// `ENOTDIR`: a component of the path is not a directory.
  public static let notDirectory = StoreErrno(rawValue: ENOTDIR)
  /// `EBADF`: the file descriptor is not open.
  public static let badFileDescriptor = StoreErrno(rawValue: EBADF)
  /// `ENODEV`: the file system cannot do this (for example map a file).
  public static let noDevice = StoreErrno(rawValue: ENODEV)
  /// `ENAMETOOLONG`: the path or one of its names is too long.
  public static let nameTooLong = StoreErrno(rawValue: ENAMETOOLONG)
  /// `ELOOP`: too many symbolic links on the path.
  public static let tooManySymbolicLinks = StoreErrno(rawValue: ELOOP)
  /// `EXDEV`: a rename across file systems.
  public static let crossDevice = StoreErrno(rawValue: EXDEV)
  /// `ENOTEMPTY`: the directory is not empty.
  public static let directoryNotEmpty = StoreErrno(rawValue: ENOTEMPTY)
  /// `EFBIG`: the file would grow beyond what the file system allows.
  public static let fileTooLarge = StoreErrno(rawValue: EFBIG)
  /// `EOVERFLOW`: a size or offset does not fit the call's types.
  public static let overflow = StoreErrno(rawValue: EOVERFLOW)
  /// `ETXTBSY`: the file is being executed or is otherwise busy.
  public static let textFileBusy = StoreErrno(rawValue: ETXTBSY)

  /// The symbolic name (`ENOSPC`) where it is one the store knows, and the message from
  /// `strerror`.
  public var description: String {
    let message = String(cString: strerror(rawValue))
    if let name = StoreErrno.names[rawValue] { return "\(name) (\(message))" }
    return "errno \(rawValue) (\(message))"
  }

  private static let names: [Int32: String] = [
    ENOSPC: "ENOSPC", EROFS: "EROFS", EDQUOT: "EDQUOT", EACCES: "EACCES", EPERM: "EPERM",
    ENOENT: "ENOENT", EEXIST: "EEXIST", EINVAL: "EINVAL", EIO: "EIO", EINTR: "EINTR",
    EAGAIN: "EAGAIN", EBUSY: "EBUSY", EMFILE: "EMFILE", ENFILE: "ENFILE", ENOMEM: "ENOMEM",
    ENOTSUP: "ENOTSUP", EISDIR: "EISDIR", ENOTDIR: "ENOTDIR", EBADF: "EBADF", ENODEV: "ENODEV",
    ENAMETOOLONG: "ENAMETOOLONG", ELOOP: "ELOOP", EXDEV: "EXDEV", ENOTEMPTY: "ENOTEMPTY",
    EFBIG: "EFBIG", EOVERFLOW: "EOVERFLOW", ETXTBSY: "ETXTBSY",
  ]
}
