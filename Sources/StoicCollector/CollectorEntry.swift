public import StoicForwarding
@_spi(Formats) internal import StoicStore

/// One record of the collector's journal, and its byte format (little-endian).
///
/// Every record starts with four bytes:
///
/// | offset | size | field |
/// | --- | --- | --- |
/// | 0 | 1 | kind: 1 a stored batch, 2 a suppressed duplicate, 3 a key conflict |
/// | 1 | 1 | format version: 1, or 2 for a batch whose body is compressed |
/// | 2 | 1 | signal: 1 logs, 2 metrics |
/// | 3 | 1 | version 1: reserved, 0; version 2: the body's compression, 1 gzip, 2 zstd |
///
/// A batch (kind 1) continues with `status:u16 | rejected:i64 | bodyCRC32C:u32 |
/// recordCount:u32`, then `key`, `message` (the stored response's partial-success message)
/// as `length:u16 | UTF-8`, then `producerCount:u16` and per producer `name` (as above) and
/// `records:u32`, then `bodyLength:u32 | body`: the request as protobuf, either as received
/// (a protobuf request, kept in its `Content-Encoding`: a gzip or zstd body is stored as it
/// came, a fifth of the bytes to write and sync) or re-encoded from what was decoded (a JSON
/// request). The CRC is always that of the uncompressed protobuf. A duplicate (kind 2) and a
/// key conflict (kind 3) continue with their `key`.
///
/// The journal checks each record's CRC; this decoder still checks every length against the
/// record's end and refuses what does not fit (an entry that does not decode is counted, never
/// a crash).
public enum CollectorEntry: Equatable, Sendable {
  /// A request stored, with the answer it got.
  case batch(CollectorBatch)
  /// A replayed key: the request was answered from the stored response, not stored again.
  case duplicate(signal: OTLPSignal, key: String)
  /// A stored key reused with another body: answered 422, nothing stored.
  case conflict(signal: OTLPSignal, key: String)

  enum Offset {
    static let kind = 0
    static let version = 1
    static let signal = 2
    static let compression = 3
    static let body = 4
  }

  enum Kind {
    static let batch: UInt8 = 1
    static let duplicate: UInt8 = 2
    static let conflict: UInt8 = 3
  }

  /// The version of every entry but a compressed batch: 1.
  static let version: UInt8 = 1
  /// The version of a batch whose body is compressed: 2.
  static let compressedVersion: UInt8 = 2

  /// The record's bytes, written with the package's byte cursor (as ``decode(_:withBody:)``
  /// reads them with its reader).
  func encoded() -> [UInt8] {
    var writer = ByteWriter()
    switch self {
    case .batch(let batch):
      writer.bytes.reserveCapacity(batch.body.count + 64 + batch.key.utf8.count)
      writer.raw([
        Kind.batch, batch.bodyCompression == .none ? Self.version : Self.compressedVersion,
        Self.code(batch.signal), batch.bodyCompression.rawValue,
      ])
      writer.u16(UInt16(clamping: batch.status))
      writer.i64(batch.rejected)
      writer.u32(batch.bodyChecksum)
      writer.u32(UInt32(clamping: batch.recordCount))
      writer.shortText(batch.key)
      writer.shortText(batch.message)
      writer.u16(UInt16(clamping: batch.producers.count))
      for producer in batch.producers.prefix(Int(UInt16.max)) {
        writer.shortText(producer.name)
        writer.u32(UInt32(clamping: producer.records))
      }
      writer.u32(UInt32(clamping: batch.body.count))
      writer.raw(batch.body)
    case .duplicate(let signal, let key):
      writer.raw([Kind.duplicate, Self.version, Self.code(signal), 0])
      writer.shortText(key)
    case .conflict(let signal, let key):
      writer.raw([Kind.conflict, Self.version, Self.code(signal), 0])
      writer.shortText(key)
    }
    return writer.bytes
  }

  /// Decodes a record, or returns `nil` for bytes that are not one: every field of its kind
  /// present and the bytes ending with the last, so a record of another store (an outbox's, a
  /// spool's) is not taken for one.
  ///
  /// - Parameters:
  ///   - bytes: The journal record's payload.
  ///   - withBody: Whether to copy a batch's body (reading the index at open, or listing
  ///     what a store holds, does not need it).
  public static func decode(_ bytes: UnsafeRawBufferPointer, withBody: Bool) -> CollectorEntry? {
    guard let kind = bytes.readLittleEndian(UInt8.self, at: Offset.kind),
      let entryVersion = bytes.readLittleEndian(UInt8.self, at: Offset.version),
      let signalCode = bytes.readLittleEndian(UInt8.self, at: Offset.signal),
      let signal = signal(signalCode),
      let compression = bytes.readLittleEndian(UInt8.self, at: Offset.compression)
    else { return nil }
    let bodyCompression: CollectorBodyCompression
    switch (entryVersion, CollectorBodyCompression(rawValue: compression)) {
    case (version, _): bodyCompression = .none
    case (compressedVersion, .some(let coded)) where kind == Kind.batch && coded != .none:
      bodyCompression = coded
    default: return nil
    }
    var cursor = ByteReader(bytes, at: Offset.body)
    switch kind {
    case Kind.duplicate:
      guard let key = cursor.shortText(), cursor.isAtEnd else { return nil }
      return .duplicate(signal: signal, key: key)
    case Kind.conflict:
      guard let key = cursor.shortText(), cursor.isAtEnd else { return nil }
      return .conflict(signal: signal, key: key)
    case Kind.batch:
      guard let status = cursor.u16(),
        let rejected = cursor.i64(),
        let checksum = cursor.u32(),
        let recordCount = cursor.u32(),
        let key = cursor.shortText(),
        let message = cursor.shortText(),
        let producerCount = cursor.u16()
      else { return nil }
      var producers: [CollectorBatch.Producer] = []
      for _ in 0..<producerCount {
        guard let name = cursor.shortText(), let records = cursor.u32() else {
          return nil
        }
        producers.append(CollectorBatch.Producer(name: name, records: Int(records)))
      }
      guard let bodyLength = cursor.u32(),
        let body = cursor.take(Int(bodyLength)).map({ withBody ? Array($0) : [] }),
        cursor.isAtEnd
      else { return nil }
      return .batch(
        CollectorBatch(
          signal: signal, key: key, status: Int(status), rejected: rejected, message: message,
          bodyChecksum: checksum, recordCount: Int(recordCount), producers: producers,
          body: body, bodyCompression: bodyCompression))
    default:
      return nil
    }
  }

  private static func code(_ signal: OTLPSignal) -> UInt8 {
    switch signal {
    case .logs: 1
    case .metrics: 2
    case .traces: 3
    }
  }

  private static func signal(_ code: UInt8) -> OTLPSignal? {
    switch code {
    case 1: .logs
    case 2: .metrics
    case 3: .traces
    default: nil
    }
  }
}

/// A stored request: what the journal keeps of each batch the collector accepted.
public struct CollectorBatch: Equatable, Sendable {
  /// A producer (a `service.instance.id`) and how many of the batch's records are its.
  public struct Producer: Equatable, Sendable {
    /// The resource's `service.instance.id`, else its `service.name`, else `unknown`.
    public var name: String
    /// Its log records or data points in the batch.
    public var records: Int
  }

  /// Logs or metrics.
  public var signal: OTLPSignal
  /// The `Idempotency-Key` it came with; empty for none.
  public var key: String
  /// The stored response: the status …
  public var status: Int
  /// … the partial success's rejected count …
  public var rejected: Int64
  /// … and its message.
  public var message: String
  /// CRC32C of the request as uncompressed protobuf, to tell a replay from a different request
  /// under a reused key.
  public var bodyChecksum: UInt32
  /// Log records or data points.
  public var recordCount: Int
  /// Its producers, each with its records' count.
  public var producers: [Producer]
  /// The request as protobuf, compressed as ``bodyCompression`` says (empty when decoded
  /// without the body).
  public var body: [UInt8]
  /// How ``body`` is compressed.
  public var bodyCompression = CollectorBodyCompression.none

  /// Whether ``body`` is gzip-compressed (``bodyCompression`` is ``CollectorBodyCompression/gzip``);
  /// setting it to `false` marks a gzip body uncompressed.
  public var bodyIsGzip: Bool {
    get { bodyCompression == .gzip }
    set {
      if newValue {
        bodyCompression = .gzip
      } else if bodyCompression == .gzip {
        bodyCompression = .none
      }
    }
  }

  /// The request as uncompressed protobuf, or `nil` when a compressed body does not
  /// decompress (damage the journal's CRC missed) or expands past `limit` bytes.
  func protobuf(limit: Int) -> [UInt8]? {
    bodyCompression.decompress(body, limit: limit)
  }

  /// What is wrong with the stored body (decoded with it), or `nil`: a body marked compressed
  /// that does not decompress (or expands past `limit` bytes), or one whose request,
  /// uncompressed, does not have the CRC32C stored beside it.
  public func bodyProblem(limit: Int) -> String? {
    guard let protobuf = protobuf(limit: limit) else {
      return
        "its body is marked \(bodyCompression.contentEncoding) but does not decompress "
        + "(within \(limit) bytes)"
    }
    guard CRC32C.checksum(protobuf) == bodyChecksum else {
      return "its body does not match the CRC32C stored with it"
    }
    return nil
  }
}
