/// The one error type every public API of the store throws.
///
/// Modelled on swift-nio's `FileSystemError`: a ``Code`` to switch on, a human ``message``,
/// the ``path`` and the ``syscall`` with its ``errno`` where there is one, an optional
/// underlying ``cause``, and the ``location`` in the store's source that raised it. Every
/// error classifies itself for retry with ``retryDecision``.
public struct StoreError: Error, Sendable, CustomStringConvertible {
  /// What went wrong, as a value to switch on.
  public var code: Code
  /// A sentence for a person: what the store was doing and what happened.
  public var message: String
  /// The path involved, where there is one.
  public var path: String?
  /// The system call that failed (`"open"`, `"fsync"`, …), where one did.
  public var syscall: String?
  /// The error number the system call returned, where one did.
  public var errno: StoreErrno?
  /// The underlying error, where this one wraps another (for example a codec's).
  public var cause: (any Error & Sendable)?
  /// Where in the store the error was raised.
  public var location: SourceLocation

  /// A place in source code.
  public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file (`#fileID`).
    public var file: String
    /// The line.
    public var line: Int
    /// Creates a location.
    public init(file: String, line: Int) {
      self.file = file
      self.line = line
    }
    /// `file:line`.
    public var description: String { "\(file):\(line)" }
  }

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: What went wrong.
  ///   - message: A sentence for a person.
  ///   - path: The path involved, if any.
  ///   - syscall: The failing system call, if any.
  ///   - errno: The error number it returned, if any.
  ///   - cause: The wrapped error, if any.
  ///   - file: Where the error is raised (`#fileID`).
  ///   - line: The line where it is raised.
  public init(
    _ code: Code,
    _ message: String,
    path: String? = nil,
    syscall: String? = nil,
    errno: StoreErrno? = nil,
    cause: (any Error & Sendable)? = nil,
    file: String = #fileID,
    line: Int = #line
  ) {
    self.code = code
    self.message = message
    self.path = path
    self.syscall = syscall
    self.errno = errno
    self.cause = cause
    self.location = SourceLocation(file: file, line: line)
  }

  /// Whether the same call could succeed if tried again unchanged.
  ///
  /// - `stop`: `ENOSPC`, `EROFS`, `EDQUOT`, `EACCES`, `EPERM`, `ENOENT`, `EEXIST`, `EINVAL`,
  ///   `EIO`, corruption, poisoning, bad input, and any errno not listed under retry.
  /// - `retry`: `EINTR`, `EAGAIN`, `EBUSY`, `EMFILE`, `ENFILE`, `ENOMEM`, and a lock held by
  ///   another handle.
  ///
  /// `EIO` stops: after a failed `fsync` the kernel may have dropped the dirty pages, so a
  /// retried `fsync` can report success with the data gone ("fsyncgate"). A whole
  /// ``AtomicFile`` write may be tried again later (it starts from a fresh file), a journal
  /// needs a reopen.
  public var retryDecision: RetryDecision { code.retryDecision }

  /// The error and every error it wraps, one per line, outermost first, each with its code,
  /// message, call, errno and location:
  ///
  /// ```
  /// StoreError.poisoned: a sync of the journal failed (io); … [StoicStore/Journal+Sync.swift:147]
  ///   ← StoreError.io: Could not make durable (sync) '/spool/journal-….log': the device … [StoicStore/PosixFileSystem+Sync.swift:27]
  /// ```
  public var detailedDescription: String {
    var lines = [description(includingCause: false)]
    var next = cause
    var depth = 0
    while let current = next, depth < 32 {
      depth += 1
      if let wrapped = current as? StoreError {
        lines.append("  ← " + wrapped.description(includingCause: false))
        next = wrapped.cause
      } else {
        lines.append("  ← \(current)")
        next = nil
      }
    }
    return lines.joined(separator: "\n")
  }

  /// The code, message, path, call and errno, and the wrapped cause.
  ///
  /// The path, call and errno are added after the message unless it already names them (as
  /// the one ``system(_:_:path:file:line:)`` writes does).
  public var description: String {
    description(includingCause: true)
  }

  private func description(includingCause: Bool) -> String {
    var text = "StoreError.\(code): \(message)"
    var details: [String] = []
    if let path, !message.contains(path) { details.append("path: \(path)") }
    if let syscall, !message.contains(syscall) { details.append("syscall: \(syscall)") }
    if let errno, !message.contains(errno.description) { details.append("errno: \(errno)") }
    if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
    if includingCause, let cause { text += " (cause: \(cause))" }
    text += " [\(location)]"
    return text
  }
}
