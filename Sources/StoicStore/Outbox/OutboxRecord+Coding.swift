extension OutboxRecord {
  enum Kind {
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
  }

  /// The version of the fielded record types this build writes and the highest it reads.
  static let fieldedVersion: UInt8 = 1

  private enum Tag {
    static let key: UInt8 = 1
    static let error: UInt8 = 2
    static let isBatch: UInt8 = 3
    static let keys: UInt8 = 4
    static let file: UInt8 = 5
  }

  /// The record's bytes, as appended to the journal.
  func encoded() -> [UInt8] {
    var writer = OutboxByteWriter()
    func fielded(_ kind: UInt8, _ fields: OutboxFields) {
      writer.u8(kind)
      writer.u8(Self.fieldedVersion)
      writer.raw(fields.encoded())
    }
    func target(_ target: OutboxTarget) -> OutboxFields {
      var fields = OutboxFields()
      fields.set(Tag.key, string: target.key)
      if case .batch = target { fields.set(Tag.isBatch, [1]) }
      return fields
    }
    func keyed(_ key: String) -> OutboxFields {
      var fields = OutboxFields()
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
    var reader = OutboxByteReader(bytes)
    guard let kind = reader.u8() else { return .failure(.init("empty record")) }
    switch kind {
    case Kind.seedEnqueue, Kind.acknowledge:
      guard let length = reader.u16(), let keyBytes = reader.raw(Int(length)),
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
    guard let version = reader.u8() else {
      return .failure(.init("record type \(kind) has no version"))
    }
    guard
      [
        Kind.enqueue, Kind.park, Kind.requeue, Kind.formBatch, Kind.attempt, Kind.discard,
        Kind.acknowledgeBatch, Kind.uploaded, Kind.noteError,
      ].contains(kind)
    else { return .failure(.init("unknown record type \(kind) (version \(version))")) }
    guard version >= 1, version <= fieldedVersion else {
      return .failure(.init("record type \(kind) has version \(version), newer than this build"))
    }
    guard let fields = OutboxFields.decode(from: &reader), reader.isAtEnd else {
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
