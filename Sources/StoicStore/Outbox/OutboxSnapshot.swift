/// The outbox's compaction snapshot: everything the outbox holds, in one self-describing
/// document the journal stores atomically.
///
/// Layout: `"SOBX" | formatVersion:u8 | compression:u8 | body`, with compression 0 = none
/// (what the outbox writes: the journal stores every snapshot zstd-compressed itself) and
/// 1 = a zstd-compressed body (read, for a log that does not compress). The body is a list of sections
/// (``OutboxFields``: `count:u16 | (tag:u8 | length:u32 | value)*`):
///
/// | tag | section |
/// | --- | --- |
/// | 1 | entries: `count:u32 | (length:u32 | entry fields)*` (see `StoredEntry+Fields`) |
/// | 2 | unreadable entries, kept byte for byte: same layout |
/// | 3 | journal records this build could not read, byte for byte: same layout |
/// | 4 | keys of recently retired entries: `count:u32 | (length:u32 | UTF-8)*` |
/// | 5 | owned files still to remove: same layout |
///
/// Sections this build does not know are kept and written back. Each entry describes its own
/// fields, so one written by an older build with a field missing takes that field's default,
/// and one missing its key is kept as unreadable.
enum OutboxSnapshot {
  static let magic: [UInt8] = Array("SOBX".utf8)
  static let formatVersion: UInt8 = 1

  enum Compression {
    static let none: UInt8 = 0
    static let zstd: UInt8 = 1
  }

  enum Section {
    static let entries: UInt8 = 1
    static let unreadableEntries: UInt8 = 2
    static let unknownRecords: UInt8 = 3
    static let retiredKeys: UInt8 = 4
    static let fileRemovals: UInt8 = 5
    static let known: Set<UInt8> = [1, 2, 3, 4, 5]
  }

  /// The snapshot of `ledger` (with a deliberate defect only in the mutation tests).
  static func encode(_ ledger: OutboxLedger, mutations: OutboxMutations = [])
    throws(StoreError)
    -> [UInt8]
  {
    var entries = ledger.entries.map { $0.fields.encoded() }
    if mutations.contains(.snapshotDropsFirstEntry), !entries.isEmpty { entries.removeFirst() }
    var sections = OutboxFields()
    sections.set(Section.entries, blobs(entries))
    sections.set(Section.unreadableEntries, blobs(ledger.unreadableEntries.map(\.bytes)))
    sections.set(Section.unknownRecords, blobs(ledger.unknownRecords.map(\.bytes)))
    sections.set(Section.retiredKeys, strings: ledger.retiredKeys)
    sections.set(Section.fileRemovals, strings: ledger.fileRemovals)
    for section in ledger.unknownSections { sections.fields.append(section) }
    var writer = OutboxByteWriter()
    writer.raw(magic)
    writer.u8(formatVersion)
    writer.u8(Compression.none)
    writer.raw(sections.encoded())
    return writer.bytes
  }

  /// The ledger a snapshot describes, with the records it carries that this build cannot
  /// read kept as they are (those it can read are returned to be applied after the entries).
  ///
  /// - Throws: ``StoreError/Code/corrupt`` when the document itself cannot be read (wrong
  ///   magic, bad compression, sections that do not parse) and ``StoreError/Code/unsupported``
  ///   when it was written by a newer format: the outbox then refuses to open rather than
  ///   overwrite what it cannot read.
  static func decode(_ bytes: [UInt8], maxSize: Int) throws(StoreError) -> (
    ledger: OutboxLedger, records: [[UInt8]]
  ) {
    var reader = OutboxByteReader(bytes)
    guard reader.raw(4) == magic, let version = reader.u8(), let compression = reader.u8() else {
      throw StoreError(.corrupt, "the outbox snapshot has no SOBX header")
    }
    guard version <= formatVersion, version >= 1 else {
      throw StoreError(
        .unsupported, "the outbox snapshot has format \(version), newer than this build reads")
    }
    let body: [UInt8]
    switch compression {
    case Compression.zstd: body = try Zstd.decompress(reader.rest(), maxOutputSize: maxSize)
    case Compression.none: body = reader.rest()
    default:
      throw StoreError(.unsupported, "the outbox snapshot uses unknown compression \(compression)")
    }
    guard let sections = OutboxFields.decode(body) else {
      throw StoreError(.corrupt, "the outbox snapshot's sections do not parse")
    }
    var ledger = OutboxLedger()
    ledger.unknownSections = sections.fields.filter { !Section.known.contains($0.tag) }
    for key in try strings(sections, Section.retiredKeys) { ledger.remember(retired: key) }
    ledger.fileRemovals = try strings(sections, Section.fileRemovals)
    var readable: [StoredEntry] = []
    let unreadable = try blobs(sections, Section.unreadableEntries)
    for blob in try blobs(sections, Section.entries) + unreadable {
      switch OutboxFields.decode(blob).map(StoredEntry.decode) {
      case .success(let entry)?: readable.append(entry)
      case .failure(let reason)?: ledger.unreadableEntries.append((blob, reason.text))
      case nil: ledger.unreadableEntries.append((blob, "the entry's fields do not parse"))
      }
    }
    // Every entry keeps the place it was stored in, which is the queue order the snapshot was
    // taken in: the order a replay of the log gives. Neither the creation time (0 when an
    // older format wrote none, or when the wall clock read the epoch) nor anything else
    // reorders the queue across a compaction.
    for entry in readable { ledger.apply(.enqueue(entry)) }
    return (ledger, try blobs(sections, Section.unknownRecords))
  }

  private static func blobs(_ values: [[UInt8]]) -> [UInt8] {
    var writer = OutboxByteWriter()
    writer.blobs(values)
    return writer.bytes
  }

  private static func blobs(_ sections: OutboxFields, _ tag: UInt8) throws(StoreError)
    -> [[UInt8]]
  {
    guard let value = sections[tag] else { return [] }
    var reader = OutboxByteReader(value)
    guard let blobs = reader.blobs(), reader.isAtEnd else {
      throw StoreError(.corrupt, "the outbox snapshot's section \(tag) does not parse")
    }
    return blobs
  }

  private static func strings(_ sections: OutboxFields, _ tag: UInt8) throws(StoreError)
    -> [String]
  {
    guard sections[tag] != nil else { return [] }
    guard let strings = sections.strings(tag) else {
      throw StoreError(.corrupt, "the outbox snapshot's section \(tag) does not parse")
    }
    return strings
  }
}
