#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Stoic's own trouble, said where a person sees it: OpenTelemetry's rule that telemetry never
/// fails the app in silence, and never floods it either.
///
/// A channel turns the events at or above ``minimumLevel`` (warnings and errors by default)
/// into one line each on standard error, rate-limited by kind: the first event of a kind is
/// written at once, the next ones of that kind within ``interval`` are counted, and the first
/// one after it is written with the count of those it stood for:
///
/// ```
/// stoic: error: the receiver refused the credentials: check OTEL_EXPORTER_OTLP_HEADERS (forwarding.unauthorized key=… status=401)
/// stoic: warning: store.outbox_delivery_failed key=… reason=… (and 41 more since the last line)
/// ```
///
/// A line is escaped as the command-line tool escapes text for a terminal (a path or a receiver's
/// message cannot break it), and holds only what the event holds: no event of any layer carries
/// a header value or a record's content. The line is formed under a lock and written after it
/// is released, in one `write(2)`, so lines from several threads never interleave and no lock is
/// held across the write.
///
/// ``standardError`` is the process's channel (`EventSink.standardError` is its sink), the
/// default of `StoicConfiguration.events`; an app replaces it with its own sink, or silences
/// it with `EventSink.discard`.
public final class DiagnosticChannel: Sendable {
  /// The word before every line (`stoic`, `stoic-agent`).
  public let prefix: String
  /// The least severe level written; lower ones are ignored.
  public let minimumLevel: StoreEvent.Level
  /// How long after a line of one kind the next of that kind waits (counted meanwhile).
  public let interval: Duration

  private let write: @Sendable (String) -> Void
  private let now: @Sendable () -> ContinuousClock.Instant
  /// Per kind (its name): when its last line was written and how many were counted since.
  private let state = SleepingLock<[String: Kind]>([:])

  private struct Kind {
    var lastLine: ContinuousClock.Instant
    var suppressed: Int
  }

  /// The process's channel: warnings and errors to standard error, one line per kind a minute
  /// at most, prefixed `stoic`.
  public static let standardError = DiagnosticChannel()

  /// A channel.
  ///
  /// - Parameters:
  ///   - prefix: The word before every line.
  ///   - minimumLevel: The least severe level written (`.warning`).
  ///   - interval: The least time between two lines of one kind (a minute).
  ///   - write: Where a line goes (with its line break); standard error by default.
  ///   - now: The clock the interval is measured by (tests pass their own).
  public init(
    prefix: String = "stoic", minimumLevel: StoreEvent.Level = .warning,
    interval: Duration = .seconds(60),
    write: @escaping @Sendable (String) -> Void = DiagnosticChannel.writeToStandardError,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
  ) {
    self.prefix = prefix
    self.minimumLevel = minimumLevel
    self.interval = interval
    self.write = write
    self.now = now
  }

  /// The sink that reports to this channel.
  public var sink: EventSink {
    EventSink { [self] event in report(event) }
  }

  /// Writes `event`'s line, or counts it when a line of its kind was written less than
  /// ``interval`` ago.
  public func report(_ event: StoreEvent) {
    guard event.level >= minimumLevel else { return }
    let time = now()
    let suppressed: Int? = state.withLock { kinds in
      if let kind = kinds[event.name], time - kind.lastLine < interval {
        kinds[event.name]?.suppressed += 1
        return nil
      }
      let count = kinds[event.name]?.suppressed ?? 0
      kinds[event.name] = Kind(lastLine: time, suppressed: 0)
      return count
    }
    guard let suppressed else { return }
    write(line(for: event, suppressed: suppressed))
  }

  /// `prefix: level: hint (name fields)` when the kind has a hint, else
  /// `prefix: level: name fields`; then the count of those suppressed since the last line.
  func line(for event: StoreEvent, suppressed: Int) -> String {
    let fields = event.fields.map { "\($0.0)=\($0.1)" }
    let described = ([event.name] + fields).joined(separator: " ")
    var text =
      event.definition.hint.map { "\($0) (\(described))" } ?? described
    if suppressed > 0 { text += " (and \(suppressed) more since the last line)" }
    return "\(prefix): \(event.level): " + TerminalText.escaped(text) + "\n"
  }

  /// Writes `line` to standard error in one call (a short write is finished; an error is
  /// ignored: the channel never fails its caller).
  public static func writeToStandardError(_ line: String) {
    DescriptorOutput.writeAll(STDERR_FILENO, Array(line.utf8))
  }
}
