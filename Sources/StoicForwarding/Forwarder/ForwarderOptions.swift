public import StoicStore

/// How a ``Forwarder`` forms batches, describes its app, retries and waits.
public struct ForwarderOptions: Sendable {
  /// Which names a forwarded log record's code location goes under.
  public enum CodeAttributes: Sendable, Hashable {
    /// The semantic conventions' current names: `code.file.path`, `code.function.name`,
    /// `code.line.number`.
    case current
    /// The current names and those they replaced (`code.filepath`, `code.function`,
    /// `code.lineno`), for a backend that knows only the old ones: what
    /// `OTEL_SEMCONV_STABILITY_OPT_IN=code/dup` asks for in OpenTelemetry's SDKs.
    case currentAndDeprecated
  }

  /// At most this many records (log records, or metric samples) per batch.
  public var maxRecords: Int
  /// At most this many spooled bytes per batch (a record larger than this alone still goes, in
  /// a batch of its own).
  public var maxBytes: Int
  /// How many batches per stream are formed (and recorded in the outbox, with one durable
  /// write) ahead of sending: a drain goes in rounds of this many.
  public var lookahead: Int
  /// How many batches may be in flight at once (each recorded in the outbox before its send;
  /// their answers are taken as they come). With one, each send waits for the answer to the
  /// one before.
  public var inFlight: Int
  /// How many threads prepare the batches to send (read from the spool, encode, compress) at
  /// once: 1 by default, the forwarder's own reading thread. With 2, a drain reads, encodes and
  /// compresses on two cores: a process whose work is forwarding (an agent draining a backlog
  /// to a remote collector) sends about a quarter more records a second; in an app that logs
  /// meanwhile on the same two cores, the second thread takes a core from the app instead.
  public var preparers: Int
  /// Resource attributes (`service.name`, `service.version`, …) sent with every batch. The
  /// spool's identity is added as `service.instance.id` unless given here. The default is
  /// OpenTelemetry's `service.name` for an unconfigured service,
  /// `unknown_service:<executable name>` (``OTelEnvironment/defaultServiceName(executableName:)``);
  /// ``OTelEnvironment/resourceAttributes`` gives the one the environment configures. A key
  /// given twice is sent once, with its later value; an empty key is not sent.
  public var resourceAttributes: [(String, String)]
  /// The instrumentation scope's name in every batch (its version is
  /// ``TelemetrySDK/version``).
  public var scopeName: String
  /// The names of the code location attributes: the current ones unless asked
  /// (``OTelEnvironment/codeAttributes`` reads `OTEL_SEMCONV_STABILITY_OPT_IN`).
  public var codeAttributes: CodeAttributes = .current
  /// The metadata keys of a record's trace context, moved into the OTLP record's `trace_id`,
  /// `span_id` and `flags` when well formed (swift-otel's `trace_id`, `span_id`,
  /// `trace_flags` by default; `nil` sends them as plain attributes).
  public var traceContext: TraceContextKeys? = .swiftOTel
  /// The outbox's options: the retry policy within one drain, the clock, the randomness. Its
  /// `classifier` is replaced by ``classifier``.
  public var outbox: OutboxOptions
  /// What an answer means to the outbox: OTLP/HTTP's retry rules by default
  /// (`FailureClassifier.otlp`, whose table the StoicForwarding catalog shows
  /// beside the specification's).
  public var classifier: FailureClassifier
  /// How long the background loop waits between drains while all goes well.
  public var interval: Duration
  /// The first wait of the background loop after a drain that could not finish (the endpoint
  /// unreachable, refusing, or asking to wait); doubled after each further one, with jitter.
  public var initialBackoff: Duration
  /// The longest wait of the background loop, also after a receiver's `Retry-After` that
  /// asked for longer: the outbox's `RetryPolicy/longestHold` is cut to it.
  public var maximumBackoff: Duration

  /// Creates options: batches of up to 1,000 records or 1 MiB, 32 formed ahead per stream,
  /// up to 4 in flight, prepared on one thread, `service.name`
  /// `unknown_service:<executable name>`, a drain a second, backoff from 1 s up to a minute.
  public init(
    maxRecords: Int = 1000, maxBytes: Int = 1 << 20, lookahead: Int = 32, inFlight: Int = 4,
    preparers: Int = 1,
    resourceAttributes: [(String, String)] = [
      ("service.name", OTelEnvironment.defaultServiceName())
    ],
    scopeName: String = "stoic", outbox: OutboxOptions = OutboxOptions(),
    classifier: FailureClassifier = .otlp,
    interval: Duration = .seconds(1), initialBackoff: Duration = .seconds(1),
    maximumBackoff: Duration = .seconds(60)
  ) {
    self.maxRecords = max(maxRecords, 1)
    self.maxBytes = max(maxBytes, 1)
    self.lookahead = max(lookahead, 1)
    self.inFlight = max(inFlight, 1)
    self.preparers = max(preparers, 1)
    self.resourceAttributes = resourceAttributes
    self.scopeName = scopeName
    self.outbox = outbox
    self.classifier = classifier
    self.interval = interval
    self.initialBackoff = initialBackoff
    self.maximumBackoff = maximumBackoff
  }

  /// ``outbox`` with ``classifier`` as its classifier and its retry policy's
  /// `longestHold` at most ``maximumBackoff``: what the forwarder opens its outbox with. A
  /// receiver's `Retry-After` holds the forwarder back no longer than its own longest backoff
  /// (a minute by default), however long it asked for.
  var outboxOptions: OutboxOptions {
    var options = outbox
    options.classifier = classifier
    options.retryPolicy.longestHold = min(options.retryPolicy.longestHold, maximumBackoff)
    return options
  }

  /// The background loop's wait after `failures` drains in a row that could not finish:
  /// uniform in `[ceiling / 2, ceiling]` with `ceiling = min(maximumBackoff, initialBackoff ·
  /// 2^(failures − 1))`, where `random` is uniform in 0…1.
  public func backoff(afterFailures failures: Int, random: Double) -> Duration {
    let ceiling = RetryPolicy(initialDelay: initialBackoff, maxDelay: maximumBackoff)
      .ceiling(beforeRetry: max(failures, 1))
    let fraction = 0.5 + 0.5 * min(max(random, 0), 1)
    return ceiling * fraction
  }
}
