/// One journal record of the outbox.
///
/// The first byte is the record type. The seed's two keep their layout:
/// `0x01 | keyLength:u16 | key | item` (enqueue, read but no longer written: it has no room
/// for a creation time or files) and `0x02 | keyLength:u16 | key` (acknowledge). Every other
/// type is `type:u8 | version:u8 | fields` (see `OutboxFormat`, which encodes and decodes it). A type this build does not
/// know, a version above the one it knows, or a body that does not parse is unreadable: it is
/// kept byte for byte (through compaction too) and counted, never dropped.
enum OutboxRecord: Sendable {
  /// A new entry (0x03; 0x01 when read from the seed's layout).
  case enqueue(StoredEntry)
  /// The entry was delivered (0x02).
  case acknowledge(key: String)
  /// A persisted batch was delivered: all its entries are (0x09).
  case acknowledgeBatch(batchKey: String)
  /// A permanent failure parked an entry or every entry of a batch (0x04).
  case park(OutboxTarget, error: String)
  /// The app put a parked entry back in line (0x05).
  case requeue(key: String)
  /// A batch was formed: its key and entries, persisted before its first send (0x06).
  case formBatch(batchKey: String, keys: [String])
  /// A send of an entry or batch is starting: it is in flight (0x07).
  case attempt(OutboxTarget)
  /// The app discarded an entry without delivering it (0x08).
  case discard(key: String)
  /// One of an entry's files to upload has been uploaded (0x0A).
  case uploaded(key: String, file: String)
  /// A send of an entry or batch failed without parking it: the reason is kept as its last
  /// error (0x0B).
  case noteError(OutboxTarget, error: String)
}

/// What a park or attempt record applies to.
enum OutboxTarget: Sendable, Hashable {
  case entry(String)
  case batch(String)

  var key: String {
    switch self {
    case .entry(let key), .batch(let key): key
    }
  }
}
