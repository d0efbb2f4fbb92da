/// The outbox's on-disk format: its journal records and its compaction snapshot, encoded and
/// decoded here and nowhere else, every tag and offset named. Little-endian throughout, written
/// and read with the package's one byte cursor (`ByteWriter`, `ByteReader`).
///
/// ## Fields
///
/// A self-describing list of fields, ``Fields``: `count:u16 | (tag:u8 | length:u32 | value)*`.
/// Every record type after the seed's two, every entry and the snapshot's body are fields, so
/// that a field added later is skipped (and kept) by an older reader, and a missing one is
/// detected by its absence rather than by a misparse.
///
/// ## Records
///
/// One journal record per change. The byte at ``recordKindOffset`` is the record type
/// (``RecordKind``). The seed's two keep their layout: `0x01 | keyLength:u16 | key | item`
/// (enqueue, read but no longer written: it has no room for a creation time or files) and
/// `0x02 | keyLength:u16 | key` (acknowledge), the key length at ``seedKeyLengthOffset``, the key
/// at ``seedKeyOffset``. Every other type is `type:u8 | version:u8 | fields`: the version
/// (``fieldedVersion``) at ``recordVersionOffset``, the fields (``RecordTag``; an enqueue's are
/// an entry's) at ``recordFieldsOffset``. A type this build does not know, a version above the
/// one it knows, or a body that does not parse is unreadable: it is kept byte for byte (through
/// compaction too) and counted, never dropped.
///
/// ## Entries
///
/// An entry is fields (``EntryTag``): 1 key (UTF-8, required), 2 item (required), 3 state (u8),
/// 4 created-at (i64 ms), 5 last error, 6 attempts (u64), 7 owned files, 8 files to upload,
/// 9 batch key. A missing optional field takes the default that loses nothing: state `queued`,
/// created-at 0 (the epoch, so a rescued entry drains first), no error, no files. A missing key
/// or item cannot be defaulted: the entry is unreadable and kept as it is.
///
/// ## Snapshot
///
/// `"SOBX" | formatVersion:u8 | compression:u8 | body`: the magic at ``snapshotMagicOffset``,
/// the version (``snapshotVersion``) at ``snapshotVersionOffset``, the compression
/// (``Compression``) at ``snapshotCompressionOffset``, the body at ``snapshotBodyOffset``.
/// Compression 0 = none (what the outbox writes: the journal stores every snapshot
/// zstd-compressed itself) and 1 = a zstd-compressed body (read, for a log that does not
/// compress). The body is fields, one per section (``Section``):
///
/// | tag | section |
/// | --- | --- |
/// | 1 | entries: `count:u32 | (length:u32 | entry fields)*` |
/// | 2 | unreadable entries, kept byte for byte: same layout |
/// | 3 | journal records this build could not read, byte for byte: same layout |
/// | 4 | keys of recently retired entries: `count:u32 | (length:u32 | UTF-8)*` |
/// | 5 | owned files still to remove: same layout |
///
/// Sections this build does not know are kept and written back. Each entry describes its own
/// fields, so one written by an older build with a field missing takes that field's default,
/// and one missing its key is kept as unreadable.
enum OutboxFormat {
  // MARK: Records

  /// Where a record's type is: 0.
  static let recordKindOffset = 0
  /// Where a fielded record's version is: 1.
  static let recordVersionOffset = 1
  /// Where a fielded record's fields start: 2.
  static let recordFieldsOffset = 2
  /// Where a seed record's key length (u16) is: 1.
  static let seedKeyLengthOffset = 1
  /// Where a seed record's key starts: 3.
  static let seedKeyOffset = 3
  /// The version of the fielded record types this build writes and the highest it reads.
  static let fieldedVersion: UInt8 = 1

  /// A record's type byte.
  enum RecordKind {
    static let seedEnqueue: UInt8 = 0x01
    static let acknowledge: UInt8 = 0x02
    static let enqueue: UInt8 = 0x03
    static let park: UInt8 = 0x04
    static let requeue: UInt8 = 0x05
    static let formBatch: UInt8 = 0x06
    static let attempt: UInt8 = 0x07
    static let discard: UInt8 = 0x08
    static let acknowledgeBatch: UInt8 = 0x09
    static let uploaded: UInt8 = 0x0A
    static let noteError: UInt8 = 0x0B
    /// The fielded types: `type | version | fields`.
    static let fielded: Set<UInt8> = [
      enqueue, park, requeue, formBatch, attempt, discard, acknowledgeBatch, uploaded, noteError,
    ]
  }

  /// The tags of a fielded record's fields (an enqueue's are an entry's, ``EntryTag``).
  enum RecordTag {
    static let key: UInt8 = 1
    static let error: UInt8 = 2
    static let isBatch: UInt8 = 3
    static let keys: UInt8 = 4
    static let file: UInt8 = 5
  }

  /// The tags of an entry's fields.
  enum EntryTag {
    static let key: UInt8 = 1
    static let item: UInt8 = 2
    static let state: UInt8 = 3
    static let createdAt: UInt8 = 4
    static let lastError: UInt8 = 5
    static let attempts: UInt8 = 6
    static let ownedFiles: UInt8 = 7
    static let filesToUpload: UInt8 = 8
    static let batchKey: UInt8 = 9
    static let known: Set<UInt8> = [1, 2, 3, 4, 5, 6, 7, 8, 9]
  }

  // MARK: Snapshot

  /// The snapshot's first four bytes: `SOBX`.
  static let snapshotMagic: [UInt8] = Array("SOBX".utf8)
  /// Where the magic is: 0.
  static let snapshotMagicOffset = 0
  /// Where the snapshot's format version is: 4.
  static let snapshotVersionOffset = 4
  /// Where the snapshot's compression byte is: 5.
  static let snapshotCompressionOffset = 5
  /// Where the snapshot's body (sections) starts: 6.
  static let snapshotBodyOffset = 6
  /// The snapshot format this build writes and the highest it reads.
  static let snapshotVersion: UInt8 = 1

  /// The snapshot's compression byte.
  enum Compression {
    static let none: UInt8 = 0
    static let zstd: UInt8 = 1
  }

  /// The tags of the snapshot's sections.
  enum Section {
    static let entries: UInt8 = 1
    static let unreadableEntries: UInt8 = 2
    static let unknownRecords: UInt8 = 3
    static let retiredKeys: UInt8 = 4
    static let fileRemovals: UInt8 = 5
    static let known: Set<UInt8> = [1, 2, 3, 4, 5]
  }

  // MARK: Fields

  /// A self-describing list of fields: `fieldCount:u16 | (tag:u8 | length:u32 | value)*`.
  struct Fields {
    /// The fields, in the order written; a tag appears at most once when written by this build.
    var fields: [(tag: UInt8, value: [UInt8])] = []

    init() {}

    subscript(tag: UInt8) -> [UInt8]? {
      fields.first { $0.tag == tag }?.value
    }

    mutating func set(_ tag: UInt8, _ value: [UInt8]) {
      if let index = fields.firstIndex(where: { $0.tag == tag }) {
        fields[index].value = value
      } else {
        fields.append((tag, value))
      }
    }

    mutating func set(_ tag: UInt8, string: String) { set(tag, Array(string.utf8)) }

    mutating func set(_ tag: UInt8, u64: UInt64) {
      var writer = ByteWriter()
      writer.u64(u64)
      set(tag, writer.bytes)
    }

    mutating func set(_ tag: UInt8, strings: [String]) {
      var writer = ByteWriter()
      writer.strings(strings)
      set(tag, writer.bytes)
    }

    mutating func set(_ tag: UInt8, blobs: [[UInt8]]) {
      var writer = ByteWriter()
      writer.blobs(blobs)
      set(tag, writer.bytes)
    }

    func string(_ tag: UInt8) -> String? {
      self[tag].flatMap { String(validating: $0, as: UTF8.self) }
    }

    func u64(_ tag: UInt8) -> UInt64? {
      guard let value = self[tag], value.count == 8 else { return nil }
      return value.readLittleEndian(UInt64.self, at: 0)
    }

    func strings(_ tag: UInt8) -> [String]? {
      guard let value = self[tag] else { return nil }
      return value.withUnsafeBytes { raw in
        var reader = ByteReader(raw)
        guard let strings = reader.strings(), reader.isAtEnd else { return nil }
        return strings
      }
    }

    func blobs(_ tag: UInt8) -> [[UInt8]]? {
      guard let value = self[tag] else { return nil }
      return value.withUnsafeBytes { raw in
        var reader = ByteReader(raw)
        guard let blobs = reader.blobs(), reader.isAtEnd else { return nil }
        return blobs
      }
    }

    func encode(into writer: inout ByteWriter<[UInt8]>) {
      writer.u16(UInt16(truncatingIfNeeded: fields.count))
      for field in fields {
        writer.u8(field.tag)
        writer.blob(field.value)
      }
    }

    func encoded() -> [UInt8] {
      var writer = ByteWriter()
      encode(into: &writer)
      return writer.bytes
    }

    /// Parses fields that must fill `bytes` exactly; nil when they do not.
    static func decode(_ bytes: [UInt8]) -> Fields? {
      bytes.withUnsafeBytes { raw in
        var reader = ByteReader(raw)
        guard let fields = decode(from: &reader), reader.isAtEnd else { return nil }
        return fields
      }
    }

    static func decode(from reader: inout ByteReader) -> Fields? {
      guard let count = reader.u16() else { return nil }
      var fields = Fields()
      for _ in 0..<count {
        guard let tag = reader.u8(), let value = reader.blob() else { return nil }
        fields.fields.append((tag, value))
      }
      return fields
    }
  }
}

/// Why stored bytes could not be read.
struct UnreadableReason: Error, Sendable, Hashable {
  let text: String
  init(_ text: String) { self.text = text }
}

// MARK: - Records

extension OutboxRecord {
  private typealias Kind = OutboxFormat.RecordKind
  private typealias Tag = OutboxFormat.RecordTag
  private typealias Fields = OutboxFormat.Fields

  /// The record's bytes, as appended to the journal.
  func encoded() -> [UInt8] {
    var writer = ByteWriter()
    func fielded(_ kind: UInt8, _ fields: Fields) {
      writer.u8(kind)
      writer.u8(OutboxFormat.fieldedVersion)
      fields.encode(into: &writer)
    }
    func target(_ target: OutboxTarget) -> Fields {
      var fields = Fields()
      fields.set(Tag.key, string: target.key)
      if case .batch = target { fields.set(Tag.isBatch, [1]) }
      return fields
    }
    func keyed(_ key: String) -> Fields {
      var fields = Fields()
      fields.set(Tag.key, string: key)
      return fields
    }
    switch self {
    case .enqueue(let entry):
      fielded(Kind.enqueue, entry.fields)
    case .acknowledge(let key):
      let bytes = Array(key.utf8)
      writer.u8(Kind.acknowledge)
      writer.u16(UInt16(truncatingIfNeeded: bytes.count))
      writer.raw(bytes)
    case .acknowledgeBatch(let batchKey):
      fielded(Kind.acknowledgeBatch, keyed(batchKey))
    case .park(let park, let error):
      var fields = target(park)
      fields.set(Tag.error, string: error)
      fielded(Kind.park, fields)
    case .noteError(let noted, let error):
      var fields = target(noted)
      fields.set(Tag.error, string: error)
      fielded(Kind.noteError, fields)
    case .requeue(let key):
      fielded(Kind.requeue, keyed(key))
    case .formBatch(let batchKey, let keys):
      var fields = keyed(batchKey)
      fields.set(Tag.keys, strings: keys)
      fielded(Kind.formBatch, fields)
    case .attempt(let attempt):
      fielded(Kind.attempt, target(attempt))
    case .discard(let key):
      fielded(Kind.discard, keyed(key))
    case .uploaded(let key, let file):
      var fields = keyed(key)
      fields.set(Tag.file, string: file)
      fielded(Kind.uploaded, fields)
    }
    return writer.bytes
  }

  /// The record in `bytes`, or why this build cannot read it.
  static func decode(_ bytes: [UInt8]) -> Result<OutboxRecord, UnreadableReason> {
    bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, at: OutboxFormat.recordKindOffset)
      return decode(&reader)
    }
  }

  private static func decode(_ reader: inout ByteReader) -> Result<OutboxRecord, UnreadableReason> {
    guard let kind = reader.u8() else { return .failure(.init("empty record")) }
    switch kind {
    case Kind.seedEnqueue, Kind.acknowledge:
      assert(reader.offset == OutboxFormat.seedKeyLengthOffset)
      guard let length = reader.u16(), let keyBytes = reader.take(Int(length)),
        let key = String(validating: keyBytes, as: UTF8.self), !key.isEmpty
      else { return .failure(.init("record type \(kind) has a malformed key")) }
      if kind == Kind.acknowledge {
        guard reader.isAtEnd else { return .failure(.init("acknowledgement has trailing bytes")) }
        return .success(.acknowledge(key: key))
      }
      return .success(.enqueue(StoredEntry(key: key, item: reader.rest())))
    default:
      break
    }
    assert(reader.offset == OutboxFormat.recordVersionOffset)
    guard let version = reader.u8() else {
      return .failure(.init("record type \(kind) has no version"))
    }
    guard Kind.fielded.contains(kind) else {
      return .failure(.init("unknown record type \(kind) (version \(version))"))
    }
    guard version >= 1, version <= OutboxFormat.fieldedVersion else {
      return .failure(.init("record type \(kind) has version \(version), newer than this build"))
    }
    assert(reader.offset == OutboxFormat.recordFieldsOffset)
    guard let fields = Fields.decode(from: &reader), reader.isAtEnd else {
      return .failure(.init("record type \(kind) does not parse"))
    }
    if kind == Kind.enqueue {
      return StoredEntry.decode(fields).map { .enqueue($0) }
    }
    guard let key = fields.string(Tag.key), !key.isEmpty else {
      return .failure(.init("record type \(kind) has no key"))
    }
    let target: OutboxTarget = fields[Tag.isBatch] == [1] ? .batch(key) : .entry(key)
    switch kind {
    case Kind.park:
      return .success(.park(target, error: fields.string(Tag.error) ?? ""))
    case Kind.noteError:
      return .success(.noteError(target, error: fields.string(Tag.error) ?? ""))
    case Kind.requeue:
      return .success(.requeue(key: key))
    case Kind.formBatch:
      guard let keys = fields.strings(Tag.keys) else {
        return .failure(.init("batch \(key) has no entry list"))
      }
      return .success(.formBatch(batchKey: key, keys: keys))
    case Kind.attempt:
      return .success(.attempt(target))
    case Kind.discard:
      return .success(.discard(key: key))
    case Kind.acknowledgeBatch:
      return .success(.acknowledgeBatch(batchKey: key))
    default:
      guard let file = fields.string(Tag.file) else {
        return .failure(.init("upload record for \(key) has no file"))
      }
      return .success(.uploaded(key: key, file: file))
    }
  }
}

// MARK: - Entries

extension StoredEntry {
  private typealias Tag = OutboxFormat.EntryTag

  /// The entry as fields, shared by the enqueue record and the snapshot.
  var fields: OutboxFormat.Fields {
    var fields = OutboxFormat.Fields()
    fields.set(Tag.key, string: key)
    fields.set(Tag.item, item)
    if state != .queued { fields.set(Tag.state, [state.rawValue]) }
    fields.set(Tag.createdAt, u64: UInt64(bitPattern: createdAt))
    if let lastError { fields.set(Tag.lastError, string: lastError) }
    if attempts > 0 { fields.set(Tag.attempts, u64: UInt64(attempts)) }
    if !ownedFiles.isEmpty { fields.set(Tag.ownedFiles, strings: ownedFiles) }
    if !filesToUpload.isEmpty { fields.set(Tag.filesToUpload, strings: filesToUpload) }
    if let batchKey { fields.set(Tag.batchKey, string: batchKey) }
    for field in unknownFields { fields.fields.append(field) }
    return fields
  }

  /// The entry the fields describe, or the reason they cannot be one.
  static func decode(_ fields: OutboxFormat.Fields) -> Result<StoredEntry, UnreadableReason> {
    guard let keyBytes = fields[Tag.key] else { return .failure(.init("the entry has no key")) }
    guard let key = String(validating: keyBytes, as: UTF8.self), !key.isEmpty else {
      return .failure(.init("the entry's key is not valid UTF-8"))
    }
    guard let item = fields[Tag.item] else {
      return .failure(.init("the entry \(key) has no item"))
    }
    var entry = StoredEntry(key: key, item: item)
    if let raw = fields[Tag.state]?.first, let state = OutboxEntryState(rawValue: raw) {
      entry.state = state
    }
    if let createdAt = fields.u64(Tag.createdAt) {
      entry.createdAt = Int64(bitPattern: createdAt)
    }
    entry.lastError = fields.string(Tag.lastError)
    if let attempts = fields.u64(Tag.attempts) {
      entry.attempts = Int(clamping: attempts)
    }
    entry.ownedFiles = fields.strings(Tag.ownedFiles) ?? []
    entry.filesToUpload = fields.strings(Tag.filesToUpload) ?? []
    entry.batchKey = fields.string(Tag.batchKey)
    entry.unknownFields = fields.fields.filter { !Tag.known.contains($0.tag) }
    return .success(entry)
  }
}

// MARK: - Snapshot

/// The outbox's compaction snapshot: everything the outbox holds, in one self-describing
/// document the journal stores atomically (its layout: ``OutboxFormat``).
enum OutboxSnapshot {
  private typealias Section = OutboxFormat.Section
  private typealias Compression = OutboxFormat.Compression

  /// The snapshot of `ledger` (with a deliberate defect only in the mutation tests).
  static func encode(_ ledger: OutboxLedger, mutations: OutboxMutations = [])
    throws(StoreError)
    -> [UInt8]
  {
    var entries = ledger.entries.map { $0.fields.encoded() }
    if mutations.contains(.snapshotDropsFirstEntry), !entries.isEmpty { entries.removeFirst() }
    var sections = OutboxFormat.Fields()
    sections.set(Section.entries, blobs: entries)
    sections.set(Section.unreadableEntries, blobs: ledger.unreadableEntries.map(\.bytes))
    sections.set(Section.unknownRecords, blobs: ledger.unknownRecords.map(\.bytes))
    sections.set(Section.retiredKeys, strings: ledger.retiredKeys)
    sections.set(Section.fileRemovals, strings: ledger.fileRemovals)
    for section in ledger.unknownSections { sections.fields.append(section) }
    var writer = ByteWriter()
    writer.raw(OutboxFormat.snapshotMagic)
    writer.u8(OutboxFormat.snapshotVersion)
    writer.u8(Compression.none)
    assert(writer.offset == OutboxFormat.snapshotBodyOffset)
    sections.encode(into: &writer)
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
    let header = bytes.withUnsafeBytes { raw in
      var reader = ByteReader(raw, at: OutboxFormat.snapshotMagicOffset)
      return (
        magic: reader.raw(OutboxFormat.snapshotMagic.count), version: reader.u8(),
        compression: reader.u8(), rest: reader.rest()
      )
    }
    guard header.magic == OutboxFormat.snapshotMagic, let version = header.version,
      let compression = header.compression
    else {
      throw StoreError(.corrupt, "the outbox snapshot has no SOBX header")
    }
    guard version <= OutboxFormat.snapshotVersion, version >= 1 else {
      throw StoreError(
        .unsupported, "the outbox snapshot has format \(version), newer than this build reads")
    }
    let body: [UInt8]
    switch compression {
    case Compression.zstd: body = try Zstd.decompress(header.rest, maxOutputSize: maxSize)
    case Compression.none: body = header.rest
    default:
      throw StoreError(.unsupported, "the outbox snapshot uses unknown compression \(compression)")
    }
    guard let sections = OutboxFormat.Fields.decode(body) else {
      throw StoreError(.corrupt, "the outbox snapshot's sections do not parse")
    }
    var ledger = OutboxLedger()
    ledger.unknownSections = sections.fields.filter { !Section.known.contains($0.tag) }
    for key in try strings(sections, Section.retiredKeys) { ledger.remember(retired: key) }
    ledger.fileRemovals = try strings(sections, Section.fileRemovals)
    var readable: [StoredEntry] = []
    let unreadable = try blobs(sections, Section.unreadableEntries)
    for blob in try blobs(sections, Section.entries) + unreadable {
      switch OutboxFormat.Fields.decode(blob).map(StoredEntry.decode) {
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

  private static func blobs(_ sections: OutboxFormat.Fields, _ tag: UInt8) throws(StoreError)
    -> [[UInt8]]
  {
    guard sections[tag] != nil else { return [] }
    guard let blobs = sections.blobs(tag) else {
      throw StoreError(.corrupt, "the outbox snapshot's section \(tag) does not parse")
    }
    return blobs
  }

  private static func strings(_ sections: OutboxFormat.Fields, _ tag: UInt8) throws(StoreError)
    -> [String]
  {
    guard sections[tag] != nil else { return [] }
    guard let strings = sections.strings(tag) else {
      throw StoreError(.corrupt, "the outbox snapshot's section \(tag) does not parse")
    }
    return strings
  }
}
