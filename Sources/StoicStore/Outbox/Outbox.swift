/// Durable at-least-once delivery of an app's items, with idempotency keys, stable batches,
/// and nothing silently dropped.
///
/// `enqueue` writes the item to a crash-consistent journal before it returns; a drain
/// (``deliverPending(batch:inFlight:lane:_:)``) hands entries to the app's delivery closure in order and
/// acknowledges each one durably the moment the closure reports it delivered. An app killed
/// mid-send finds the entry back in line at the next launch and sends it again with the same
/// key, which the receiver uses to answer the replay without a second copy.
///
/// What an app can count on:
/// - Entries are queued, in flight, delivered, or parked ("needs attention") after a
///   permanent failure: kept on disk with their last error until the app re-queues or
///   discards them.
/// - Enqueue is idempotent in the key; duplicates already on disk are healed at load (a
///   settled copy wins); acknowledging a key the outbox does not hold throws.
/// - A batch's key and members are persisted before its first send, so after a restart the
///   same entries go again under the same key.
/// - An entry this build cannot decode is kept byte for byte (through compaction too),
///   counted in ``unreadable``, and reported as `store.outbox_unreadable`.
/// - Files an entry owns are removed when it retires; a failed removal is reported as
///   `store.outbox_maintenance_failed` and tried again later, never failing the acknowledgement.
///
/// ## Concurrency
///
/// Every method that writes waits for a sync of the journal. The outbox therefore runs on a
/// ``BlockingExecutor`` of its own, a thread that is not one of Swift's cooperative pool: an
/// `await outbox.enqueue(…)` suspends the caller while the outbox's thread syncs, and every other
/// task in the process goes on. The delivery closure of ``deliverPending(batch:inFlight:lane:_:)`` is not
/// isolated to the outbox and runs on the global executor. Opening replays the journal, which
/// reads the disk: from async code use ``open(directory:fileSystem:codec:options:journalOptions:events:)``,
/// which does that on the outbox's thread; the initializer blocks the thread that calls it.
public actor Outbox<Item: Sendable> {
  let engine: OutboxEngine<Item>
  private var draining = false
  /// The outbox's own thread: every isolated method runs there.
  private let executor: BlockingExecutor

  /// The outbox's ``BlockingExecutor``, so its blocking work never runs on the cooperative pool.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  init(
    log: any OutboxLog, codec: OutboxCodec<Item>, fileSystem: any FileSystem,
    options: OutboxOptions, events: EventSink, executor: BlockingExecutor = BlockingExecutor()
  ) throws(StoreError) {
    self.executor = executor
    engine = try OutboxEngine(
      log: log, codec: codec, fileSystem: fileSystem, options: options, events: events)
  }

  /// Adds `item` under the idempotency `key`, durably: when this returns, the entry survives
  /// any crash.
  ///
  /// - Parameters:
  ///   - item: The item to deliver.
  ///   - key: Its idempotency key, minted by the app (1 to `maxKeyLength` bytes of UTF-8).
  ///   - ownedFiles: Files the entry owns, removed when it retires.
  ///   - filesToUpload: Files still to upload, consumed with ``markUploaded(_:of:)``.
  /// - Returns: `true` if the entry was added, `false` if the key was already held (or
  ///   recently delivered): nothing was written.
  /// - Throws: ``StoreError`` from the codec or the journal (nothing was added), or
  ///   ``StoreError/Code/invalidArgument`` for an empty or too long key.
  @discardableResult
  public func enqueue(
    _ item: Item, key: String, ownedFiles: [String] = [], filesToUpload: [String] = []
  ) throws(StoreError) -> Bool {
    try engine.enqueue(item, key: key, ownedFiles: ownedFiles, filesToUpload: filesToUpload)
  }

  /// Adds several items under their idempotency keys with one durable write (one sync for
  /// them all): when this returns, every entry added survives any crash; a crash before it
  /// returns keeps the first few of them, or none.
  ///
  /// - Parameter entries: The items with their keys, in the order they are queued. A key
  ///   already held (or recently delivered), or given twice, is skipped after its first time.
  /// - Returns: How many entries were added.
  /// - Throws: ``StoreError/Code/invalidArgument`` for an empty or too long key (nothing is
  ///   added), or ``StoreError`` from the codec or the journal (none is added in memory; the
  ///   ones that became durable are found at the next open).
  @discardableResult
  public func enqueue(contentsOf entries: [(item: Item, key: String)]) throws(StoreError) -> Int {
    try engine.enqueue(contentsOf: entries)
  }

  /// Acknowledges, durably, an entry delivered outside a drain, or a persisted batch (all its
  /// entries). Owned files are removed after the acknowledgement is durable.
  ///
  /// - Throws: ``StoreError/Code/notFound`` for a key the outbox does not hold, or the
  ///   journal's error (the entry is then still pending).
  public func acknowledge(_ key: String) throws(StoreError) {
    try engine.acknowledge(key)
  }

  /// Puts a parked entry back in line, at the end, with its attempts reset.
  ///
  /// - Throws: ``StoreError/Code/notFound`` for an unknown key,
  ///   ``StoreError/Code/invalidArgument`` for an entry that is not parked.
  public func requeue(_ key: String) throws(StoreError) {
    try engine.requeue(key)
  }

  /// Retires an entry without delivering it (for a parked entry the app gives up on);
  /// its owned files are removed.
  ///
  /// - Throws: ``StoreError/Code/notFound`` for an unknown key.
  public func discard(_ key: String) throws(StoreError) {
    try engine.discard(key)
  }

  /// Records that one of an entry's files to upload has been uploaded. This consumes
  /// ``OutboxEntry/filesToUpload`` only; the owned files are untouched.
  ///
  /// - Throws: ``StoreError/Code/notFound`` when the entry or the file is unknown.
  public func markUploaded(_ file: String, of key: String) throws(StoreError) {
    try engine.markUploaded(file, of: key)
  }

  /// Entries waiting to be delivered (queued or in flight), in queue order.
  public var pending: [OutboxEntry<Item>] {
    engine.ledger.entries.filter { $0.state != .needsAttention }.compactMap {
      engine.publicEntry($0)
    }
  }

  /// Entries parked after a permanent failure, with their last error.
  public var parked: [OutboxEntry<Item>] {
    engine.ledger.entries.filter { $0.state == .needsAttention }.compactMap {
      engine.publicEntry($0)
    }
  }

  /// The entry held under `key`, if it is readable.
  public func entry(_ key: String) -> OutboxEntry<Item>? {
    engine.ledger.entry(key).flatMap { engine.publicEntry($0) }
  }

  /// Where the entry under `key` stands: queued, in flight or needs attention while the outbox
  /// holds it; `delivered` once it has left (delivered, or discarded by the app) and its key is
  /// still remembered (``OutboxOptions/rememberedDeliveredKeys`` survive compaction); nil for a
  /// key the outbox does not know.
  public func state(of key: String) -> OutboxEntryState? {
    if let entry = engine.ledger.entry(key) { return entry.state }
    return engine.ledger.isRetired(key) ? .delivered : nil
  }

  /// The index of the first of `keys` whose state (``state(of:)``) is
  /// ``OutboxEntryState/delivered``, or nil when none is: one call for a question asked of many
  /// keys at once, where each ``state(of:)`` from outside is a round trip to the outbox's thread.
  public func firstDelivered(among keys: [String]) -> Int? {
    keys.firstIndex { state(of: $0) == .delivered }
  }

  /// What this build cannot read, kept byte for byte: "N entries this app cannot read, still
  /// on this device".
  public var unreadable: [OutboxUnreadableEntry] { engine.unreadableEntries }

  /// Duplicate enqueues found on disk at load and ignored.
  public var duplicatesHealed: Int { engine.ledger.duplicatesHealed }

  /// Writes everything the outbox holds (pending, parked, unreadable) as a zstd-compressed
  /// snapshot through the journal, which then drops the records it covers.
  ///
  /// - Throws: ``StoreError`` from the journal; nothing is lost on failure.
  public func compact() throws(StoreError) {
    try engine.compact()
  }

  /// Makes everything durable and closes the journal; the outbox cannot be used afterwards
  /// (its calls then throw ``StoreError/Code/closed``).
  ///
  /// - Throws: The journal's error (``StoreError/Code/poisoned`` after a failed sync).
  public func close() throws(StoreError) {
    try engine.close()
  }

  /// Delivers the entries queued when the drain starts, in order.
  ///
  /// - A batch persisted by an earlier drain is sent again as it was formed, under its key;
  ///   otherwise, with `batch` above one entry, the next entries are formed into a batch whose
  ///   key and members are persisted before its first send.
  /// - Each send is recorded first (the entries are in flight; an interrupted send is found
  ///   in flight at the next open and put back in line).
  /// - With `inFlight` above one, up to that many sends run at once (started in order, each
  ///   recorded first); answers are taken as they come, so deliveries may complete out of
  ///   order. With one (the default), each send waits for the answer to the one before.
  /// - Delivered (2xx, OTLP partial success): acknowledged durably the moment the closure
  ///   returns; owned files removed; the drain goes on.
  /// - Permanent failure: the entry (or the batch's entries) is parked with its reason; the
  ///   drain goes on.
  /// - Transient failure: no new send starts; once the sends in flight are answered, the entry
  ///   is retried alone with backoff and full jitter (or after the receiver's `Retry-After`)
  ///   while the policy allows, and once it is delivered the drain goes on at full width; when
  ///   the policy is spent, the entries that failed go back in line and the drain stops.
  ///
  /// A second drain started while one runs returns at once, sending nothing (its report's
  /// ``OutboxDrainReport/haltedBecause`` says so).
  ///
  /// - Parameters:
  ///   - batch: How many entries to hand the closure at once. With more than one, each batch's
  ///     key and members are persisted before the first send.
  ///   - inFlight: How many sends may run at once (at least 1).
  ///   - lane: Each item's lane (a signal, a tenant), or `nil` for one lane: a receiver's
  ///     `Retry-After` too long to wait out holds only the lane of the entry it answered, and
  ///     the drain goes on with the others; a batch is formed within one lane.
  ///   - deliver: Sends one entry or batch, under ``OutboxBatch/key``, and describes what the
  ///     receiver answered. An error it throws counts as a network error. With `inFlight`
  ///     above one it is called concurrently.
  /// - Returns: What the drain did.
  /// - Throws: ``StoreError`` when an acknowledgement, a park or a batch cannot be written;
  ///   the entry concerned stays pending and will be delivered again.
  public func deliverPending(
    batch: OutboxBatchLimits = .single, inFlight: Int = 1,
    lane: (@Sendable (Item) -> String)? = nil,
    _ deliver: @escaping @Sendable (OutboxBatch<Item>) async throws -> DeliveryResponse
  ) async throws(StoreError) -> OutboxDrainReport {
    guard !draining else {
      var report = OutboxDrainReport()
      report.haltedBecause = "a drain is already running"
      return report
    }
    draining = true
    defer { draining = false }
    return try await OutboxDrain(engine: engine, limits: batch, window: inFlight, lane: lane).run(
      deliver)
  }
}
