extension StoreError {
  /// What went wrong, as a value to switch on.
  ///
  /// A struct with static members rather than an enum, so that new codes can be added without
  /// breaking callers' `switch` statements (they match the ones they care about with `==`).
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, as shown in ``StoreError/description``.
    public let name: String
    private init(_ name: String) { self.name = name }

    /// No space left on the device (`ENOSPC`), or a preflight found too little.
    public static let diskFull = Code("diskFull")
    /// The file system is read-only (`EROFS`).
    public static let readOnly = Code("readOnly")
    /// The disk quota is exhausted (`EDQUOT`).
    public static let quotaExceeded = Code("quotaExceeded")
    /// Permission denied (`EACCES`, `EPERM`).
    public static let permissionDenied = Code("permissionDenied")
    /// The file or a directory on its path does not exist (`ENOENT`, `ENOTDIR`).
    public static let notFound = Code("notFound")
    /// The file exists where an exclusive create expected none (`EEXIST`).
    public static let alreadyExists = Code("alreadyExists")
    /// The device reported an I/O error (`EIO`). Stops: see ``StoreError/retryDecision``.
    public static let io = Code("io")
    /// The call was interrupted (`EINTR`).
    public static let interrupted = Code("interrupted")
    /// A momentary shortage (`EAGAIN`, `EBUSY`, `EMFILE`, `ENFILE`, `ENOMEM`).
    public static let temporarilyUnavailable = Code("temporarilyUnavailable")
    /// Stored bytes failed their checksum, framing or validation.
    public static let corrupt = Code("corrupt")
    /// An earlier failed sync made the handle's durability unknowable; reopen it.
    public static let poisoned = Code("poisoned")
    /// Another handle or process holds the lock on this store.
    public static let locked = Code("locked")
    /// The handle was closed.
    public static let closed = Code("closed")
    /// The caller passed something the store cannot accept (a record too large, a bad name).
    public static let invalidArgument = Code("invalidArgument")
    /// The store has used every number it can give: a journal whose records reached
    /// sequence 2^62 takes no further record.
    public static let sequenceLimitReached = Code("sequenceLimitReached")
    /// The operation is not supported here.
    public static let unsupported = Code("unsupported")
    /// A broken internal invariant of Stoic: a defect, never the caller's input or the disk's
    /// state. ``StoreError/detailedDescription`` says where; please report it.
    public static let internalInconsistency = Code("internalInconsistency")
    /// Any other system error; ``StoreError/errno`` says which.
    public static let other = Code("other")

    /// The code for a system call's errno.
    public init(errno: StoreErrno) {
      switch errno {
      case .noSpace: self = .diskFull
      case .readOnlyFileSystem: self = .readOnly
      case .quotaExceeded: self = .quotaExceeded
      case .permissionDenied, .notPermitted: self = .permissionDenied
      case .noSuchFile, .notDirectory: self = .notFound
      case .fileExists: self = .alreadyExists
      case .ioError: self = .io
      case .interrupted: self = .interrupted
      case .resourceTemporarilyUnavailable, .busy, .tooManyOpenFiles, .tooManyOpenFilesInSystem,
        .noMemory:
        self = .temporarilyUnavailable
      case .invalidArgument: self = .invalidArgument
      case .notSupported: self = .unsupported
      default: self = .other
      }
    }

    /// The retry decision for the code (see ``StoreError/retryDecision``).
    public var retryDecision: RetryDecision {
      switch self {
      case .interrupted, .temporarilyUnavailable, .locked: .retry
      default: .stop
      }
    }

    /// The code's name.
    public var description: String { name }
  }
}
