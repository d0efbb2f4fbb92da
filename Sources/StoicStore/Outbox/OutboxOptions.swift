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

/// Deliberate defects of the outbox, switched on only by the mutation tests (through
/// ``OutboxOptions/mutations``, testing SPI) to show that the crash suite catches them.
@_spi(Testing) public struct OutboxMutations: OptionSet, Sendable, Hashable {
  /// The bits.
  public let rawValue: UInt8

  /// The defects whose bits are set in `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Compaction leaves the first pending entry out of its snapshot.
  public static let snapshotDropsFirstEntry = OutboxMutations(rawValue: 1 << 0)
  /// Acknowledgements change memory but are never written to the journal.
  public static let skipAcknowledgementWrite = OutboxMutations(rawValue: 1 << 1)
  /// The drain acknowledges an entry before handing it to the delivery closure.
  public static let acknowledgeBeforeDelivering = OutboxMutations(rawValue: 1 << 2)
  /// Retiring an entry removes the files still to upload instead of the files it owns.
  public static let retireUsesUploadList = OutboxMutations(rawValue: 1 << 3)
}

/// How many entries a drain hands its delivery closure at once.
public struct OutboxBatchLimits: Sendable, Hashable {
  /// At most this many entries per batch (at least 1).
  public var maxEntries: Int
  /// At most this many item bytes per batch; an entry larger than this alone still goes, in a
  /// batch of its own.
  public var maxBytes: Int

  /// Creates limits.
  public init(maxEntries: Int, maxBytes: Int = Int.max) {
    self.maxEntries = max(maxEntries, 1)
    self.maxBytes = max(maxBytes, 1)
  }

  /// One entry at a time, sent under its own key; no batch record is written.
  public static let single = OutboxBatchLimits(maxEntries: 1)

  /// Whether these limits form persisted multi-entry batches.
  var formsBatches: Bool { maxEntries > 1 }
}
