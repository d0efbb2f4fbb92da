public import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How a ``MetricsSpool`` runs.
public struct MetricsOptions: Sendable {
  /// How often a background thread flushes (samples every changed series into the journal and
  /// syncs it), or nil for only explicit ``MetricsSpool/flush()`` and close. Default 10 s: a
  /// power loss loses at most what changed in the last interval.
  public var flushInterval: Duration?
  /// The most series per metric name and kind (default 2,000). A further distinct set of
  /// dimensions is folded into the name's overflow series, whose only dimension is
  /// `otel.metric.overflow=true`.
  public var cardinalityLimit: Int
  /// The bucket bounds of histograms made without bounds of their own: OpenTelemetry's default
  /// (``MetricHistogram/defaultBounds``).
  public var histogramBounds: [Double]
  /// The bucket bounds of timers, in nanoseconds: OpenTelemetry's default bounds read as
  /// milliseconds (0, 5 ms, 10 ms, …, 10 s).
  public var timerBounds: [Double]
  /// The size of each live file (`live-<n>.map`), rounded up to 4 KiB; another is added when
  /// one is full. At least 32 KiB (smaller values count as 32 KiB: the largest series record,
  /// with every text and dimension at its limit, fits). Default 1 MiB: about 5,000 counters or
  /// 1,900 histograms with the default bounds.
  public var liveFileSize: Int
  /// The options of the journal of samples. Default: `SyncPolicy.never` (the spool syncs at
  /// each flush itself), 1 MiB segments.
  public var journal: JournalOptions
  /// The clock samples and start times read, in nanoseconds since the Unix epoch.
  package var clock: @Sendable () -> UInt64
  /// The boot identity the live file is checked against (the machine's by default); tests
  /// change it to play a restart of the machine.
  package var bootIdentity: [UInt8]?

  /// The smallest ``liveFileSize``.
  public static let minimumLiveFileSize = 32 << 10

  /// Options; every parameter has the default described on its property.
  public init(
    flushInterval: Duration? = .seconds(10),
    cardinalityLimit: Int = 2000,
    histogramBounds: [Double] = MetricHistogram.defaultBounds,
    timerBounds: [Double] = MetricHistogram.defaultBounds.map { $0 * 1_000_000 },
    liveFileSize: Int = 1 << 20,
    journal: JournalOptions = JournalOptions(syncPolicy: .never, segmentSize: 1 << 20)
  ) {
    self.flushInterval = flushInterval
    self.cardinalityLimit = cardinalityLimit
    self.histogramBounds = histogramBounds
    self.timerBounds = timerBounds
    self.liveFileSize = liveFileSize
    self.journal = journal
    self.clock = MetricsOptions.unixNanoseconds
    self.bootIdentity = MetricsBootIdentity.current
  }

  /// The wall clock in nanoseconds since the Unix epoch.
  @Sendable
  static func unixNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return UInt64(max(time.tv_sec, 0)) * 1_000_000_000 + UInt64(max(time.tv_nsec, 0))
  }
}
