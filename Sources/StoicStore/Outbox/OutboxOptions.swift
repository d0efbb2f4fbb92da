/// How an ``Outbox`` retries, classifies, keeps time and compacts.
public struct OutboxOptions: Sendable {
  /// Backoff, attempts and budget for transient failures.
  public var retryPolicy: RetryPolicy = .standard
  /// How a delivery response becomes a decision; override to refine it for your receiver.
  public var classifier: FailureClassifier = .standard
  /// Wall clock and sleep; tests pass one they control.
  public var clock: OutboxClock = .system
  /// Randomness for jitter and batch keys; tests pass a seeded one.
  public var random: OutboxRandom = .system
  /// Compact after this many journal records since the last compaction (checked after each
  /// enqueue and drain; a failure is reported, never thrown); nil to compact only when asked.
  public var compactAfterRecords: Int? = 1024
  /// How many keys of delivered entries a snapshot remembers, so that a late duplicate offer
  /// of one is recognised as settled.
  public var rememberedDeliveredKeys: Int = 1024
  /// The longest key accepted, in UTF-8 bytes.
  public var maxKeyLength: Int = 1024
  /// The largest snapshot the outbox will decompress, in bytes.
  public var maxSnapshotSize: Int = 256 << 20
  /// Deliberate defects for the crash suite's mutation tests; empty in real use, and out of
  /// the public API (testing SPI).
  @_spi(Testing) public var mutations: OutboxMutations = []

  /// The defaults.
  public init() {}
}
