/// A crash image on which recovery or the check failed: the image and crash point, and what
/// went wrong.
///
/// `check` closures may throw one (see ``CrashContext/violation(_:)`` and
/// ``CrashContext/require(_:_:)``); anything else they throw becomes one.
public struct CrashViolation: Error, Sendable, CustomStringConvertible {
  /// Where: the crash point(s) and the image.
  public let context: CrashContext
  /// What went wrong.
  public let message: String

  /// Creates a violation.
  public init(context: CrashContext, message: String) {
    self.context = context
    self.message = message
  }

  /// The message, then the crash point and the image.
  public var description: String { "\(message) at \(context)" }
}
