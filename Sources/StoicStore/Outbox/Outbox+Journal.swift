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
  public init(
    directory: String,
    fileSystem: any FileSystem,
    codec: OutboxCodec<Item>,
    options: OutboxOptions = OutboxOptions(),
    journalOptions: JournalOptions = JournalOptions(),
    events: EventSink = .discard
  ) throws(StoreError) {
    let journal = try Journal.open(
      directory: directory, fileSystem: fileSystem, options: journalOptions, events: events)
    try self.init(
      log: JournalOutboxLog(journal: journal), codec: codec, fileSystem: fileSystem,
      options: options, events: events)
  }
}
