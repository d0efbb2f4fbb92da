/// A crash image on which recovery or the check failed: the image and crash point, what kind
/// of promise was broken, and what went wrong.
///
/// `check` closures may throw one (see ``CrashContext/violation(_:_:)`` and
/// ``CrashContext/require(_:_:_:)``); anything else they throw becomes one of kind
/// ``Kind/checkThrew``.
public struct CrashViolation: Error, Sendable, CustomStringConvertible {
  /// What kind of promise a crash image broke: tests assert on this rather than on the text
  /// of ``message``.
  public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Something that must survive the crash is missing: a record or entry whose write had
    /// returned, or one that was there before an operation that must not remove it.
    case missingData
    /// An operation that had returned is not in effect after recovery (an acknowledgement,
    /// a requeue, a discard, an upload mark came back undone).
    case revertedOperation
    /// Something that must be gone after recovery is still there (a file an entry owned
    /// after the entry left).
    case leftBehind
    /// What recovery found is wrong in another way: a value never written, records out of
    /// order, a count that does not add up. The kind of ``CrashContext/require(_:_:)``,
    /// which names none.
    case wrongState
    /// Recovery threw: it refused or failed on the crashed disk.
    case recoveryThrew
    /// The check threw an error that is not a ``CrashViolation``.
    case checkThrew
    /// The setup threw, so nothing was explored.
    case setupThrew

    /// The case's name.
    public var description: String { rawValue }
  }

  /// Where: the crash point(s) and the image.
  public let context: CrashContext
  /// What kind of promise was broken.
  public let kind: Kind
  /// What went wrong.
  public let message: String

  /// Creates a violation of `kind` (by default ``Kind/wrongState``).
  public init(context: CrashContext, kind: Kind = .wrongState, message: String) {
    self.context = context
    self.kind = kind
    self.message = message
  }

  /// The kind and message, then the crash point and the image.
  public var description: String { "\(kind): \(message) at \(context)" }
}
