/// The tool's exit statuses, the same for every command (`stoic help` lists them). The codes
/// above 2 are the BSD `sysexits.h` ones.
public struct ExitStatus: Sendable, Hashable, CustomStringConvertible {
  /// The status passed to `exit`.
  public let code: Int32

  /// A status with `code`.
  public init(_ code: Int32) { self.code = code }

  /// 0: done; for `verify`, nothing the library would refuse.
  public static let success = ExitStatus(0)
  /// 1: `verify` found damage (or a store the library refuses); `compact` refused a damaged
  /// store; `demo` failed; `drain` had a batch refused permanently (parked).
  public static let damage = ExitStatus(1)
  /// 2: the store could not be read (or, for `compact`, written): an I/O or permission error.
  public static let unreadable = ExitStatus(2)
  /// 64 (`EX_USAGE`): an unknown command or option, a missing or malformed argument.
  public static let usage = ExitStatus(64)
  /// 66 (`EX_NOINPUT`): the path does not exist or is not a Stoic store.
  public static let noStore = ExitStatus(66)
  /// 69 (`EX_UNAVAILABLE`): a command that writes found the store held by another process.
  public static let held = ExitStatus(69)
  /// 75 (`EX_TEMPFAIL`): `drain` stopped on a transient failure (the receiver unreachable or
  /// asking to wait); nothing was lost, and running it again goes on where it stopped.
  public static let tryLater = ExitStatus(75)
  /// 77 (`EX_NOPERM`): `drain` was refused by the receiver (401 or 403: the credentials in
  /// `OTEL_EXPORTER_OTLP_HEADERS` are wrong or missing); nothing was lost, and running it again
  /// with the right ones goes on where it stopped.
  public static let refused = ExitStatus(77)

  /// The number.
  public var description: String { String(code) }
}

/// A command that cannot go on: the one line to print and the status to exit with.
public struct CommandFailure: Error, Sendable, Hashable {
  /// The exit status.
  public let status: ExitStatus
  /// One line for standard error (without the `stoic:` prefix).
  public let message: String

  /// A failure.
  public init(_ status: ExitStatus, _ message: String) {
    self.status = status
    self.message = message
  }
}
