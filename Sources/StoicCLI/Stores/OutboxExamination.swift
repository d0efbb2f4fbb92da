import StoicStore

/// What the library finds in an outbox: the tool opens it with `Outbox`'s own open (its
/// journal replayed, its snapshot decoded, duplicates healed, in-flight entries put back in
/// line) over an ``OverlayFileSystem``, items kept as raw bytes, and lists what it holds.
struct OutboxExamination {
  /// One entry as the outbox sees it.
  struct Entry {
    var key: String
    var state: OutboxEntryState
    var createdAt: Int64
    var attempts: Int
    var lastError: String?
    var batchKey: String?
    var bytes: Int
  }

  /// Entries waiting to be delivered, in queue order.
  var pending: [Entry] = []
  /// Entries parked after a permanent failure.
  var parked: [Entry] = []
  /// What this build cannot read, kept byte for byte.
  var unreadable: [OutboxUnreadableEntry] = []
  /// Duplicate enqueues found on disk and ignored.
  var duplicatesHealed = 0
  /// What was found.
  var findings: [Finding] = []
  /// An error that kept the tool from reading (not damage).
  var failure: StoreError?

  /// Opens the outbox in `directory` over an overlay and reads what it holds.
  @MainActor
  static func run(directory: String, maxRecordSize: Int) async -> OutboxExamination {
    var examination = OutboxExamination()
    var options = OutboxOptions()
    options.compactAfterRecords = nil
    let outbox: Outbox<[UInt8]>
    do throws(StoreError) {
      outbox = try await Outbox.open(
        directory: directory, fileSystem: OverlayFileSystem(), codec: .bytes, options: options,
        journalOptions: JournalExamination.options(maxRecordSize: maxRecordSize, salvage: false))
    } catch {
      if error.code == .corrupt || error.code == .unsupported {
        // Without a path of its own, the error is about the snapshot, which the checkpoint holds.
        let file = error.path ?? StorePath.join(directory, JournalFileNames.checkpoint)
        examination.findings.append(
          Finding(.damage, .damage, file: file, "the outbox cannot be opened: \(error.message)"))
      } else {
        examination.failure = error
      }
      return examination
    }
    examination.pending = await outbox.pending.map(Self.entry)
    examination.parked = await outbox.parked.map(Self.entry)
    examination.unreadable = await outbox.unreadable
    examination.duplicatesHealed = await outbox.duplicatesHealed
    try? await outbox.close()
    for entry in examination.unreadable {
      examination.findings.append(
        Finding(
          .warning, .unreadableEntry, file: directory,
          "an entry this build cannot read\(entry.key.map { " (key \($0))" } ?? ""), "
            + "\(entry.byteCount) bytes kept as they are: \(entry.reason)"))
    }
    return examination
  }

  private static func entry(_ entry: OutboxEntry<[UInt8]>) -> Entry {
    Entry(
      key: entry.key, state: entry.state, createdAt: entry.createdAt, attempts: entry.attempts,
      lastError: entry.lastError, batchKey: entry.batchKey, bytes: entry.item.count)
  }

  /// The batches among the pending entries: each persisted batch's key with its entries' count.
  var batches: [(key: String, entries: Int)] {
    var order: [String] = []
    var counts: [String: Int] = [:]
    for entry in pending {
      guard let key = entry.batchKey else { continue }
      if counts[key] == nil { order.append(key) }
      counts[key, default: 0] += 1
    }
    return order.map { ($0, counts[$0] ?? 0) }
  }
}
