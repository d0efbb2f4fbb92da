extension Outbox {
  /// Opens (creating if needed) the outbox whose journal lives in `directory`, recovering it:
  /// the snapshot and the records after it are replayed, duplicates healed, entries found in
  /// flight put back in line, and owned files of retired entries removed.
  ///
  /// - Parameters:
  ///   - directory: The outbox's own directory (its journal's files live there).
  ///   - fileSystem: The door to the disk.
  ///   - codec: How items become bytes and back.
  ///   - options: Retry policy, classifier, clock, compaction.
  ///   - journalOptions: The journal's options (sizes, salvage). Every outbox record is
  ///     appended durably whatever its sync policy.
  ///   - events: Where the outbox and its journal report.
  /// - Throws: ``StoreError`` from the journal (``StoreError/Code/locked`` when another handle
  ///   holds it, ``StoreError/Code/corrupt`` for damaged durable data); a snapshot this build
  ///   cannot read at all (``StoreError/Code/corrupt``, ``StoreError/Code/unsupported``) makes
  ///   open refuse rather than overwrite it.
  ///
  /// This blocks the calling thread while the journal is read; from async code, use
  /// ``open(directory:fileSystem:codec:options:journalOptions:events:)``.
  public init(
    directory: String,
    fileSystem: any FileSystem,
    codec: OutboxCodec<Item>,
    options: OutboxOptions = OutboxOptions(),
    journalOptions: JournalOptions = JournalOptions(),
    events: EventSink = .discard
  ) throws(StoreError) {
    try self.init(
      directory: directory, fileSystem: fileSystem, codec: codec, options: options,
      journalOptions: journalOptions, events: events, executor: BlockingExecutor())
  }

  /// Opens the outbox as ``init(directory:fileSystem:codec:options:journalOptions:events:)``
  /// does, reading the journal on the outbox's own thread: the calling task is suspended, and no
  /// thread of the cooperative pool waits for the disk.
  ///
  /// - Throws: What the initializer throws.
  public static func open(
    directory: String,
    fileSystem: any FileSystem,
    codec: OutboxCodec<Item>,
    options: OutboxOptions = OutboxOptions(),
    journalOptions: JournalOptions = JournalOptions(),
    events: EventSink = .discard
  ) async throws(StoreError) -> Outbox {
    let executor = BlockingExecutor()
    return try await executor.run { () throws(StoreError) in
      try Outbox(
        directory: directory, fileSystem: fileSystem, codec: codec, options: options,
        journalOptions: journalOptions, events: events, executor: executor)
    }
  }

  private init(
    directory: String, fileSystem: any FileSystem, codec: OutboxCodec<Item>,
    options: OutboxOptions, journalOptions: JournalOptions, events: EventSink,
    executor: BlockingExecutor
  ) throws(StoreError) {
    let journal = try Journal.open(
      directory: directory, fileSystem: fileSystem, options: journalOptions, events: events)
    try self.init(
      log: JournalOutboxLog(journal: journal), codec: codec, fileSystem: fileSystem,
      options: options, events: events, executor: executor)
  }
}
