@testable import StoicTelemetry

/// The log record decoder (`LogRecordFormat`): a record it accepts re-encodes to bytes of the
/// same length (the encoding is canonical but for the order of metadata keys: the same bytes
/// when no map has two keys) that decode to the same record, and the fixed header read without
/// decoding agrees with the decoded one.
enum LogRecordTarget {
  static let target = FuzzTarget(
    name: "log-record",
    summary: "log record decoder: decode, re-encode, decode again to the same record",
    maxLength: 4096,
    run: { bytes in
      let header = bytes.withUnsafeBytes { LogRecordFormat.header(of: $0) }
      FuzzCheck.require(
        (header == nil) == (bytes.count < LogRecordFormat.headerSize),
        "the header is read from \(bytes.count) bytes")
      guard let record = try? LogRecordFormat.decode(bytes, sequence: 7) else { return }
      FuzzCheck.require(
        header?.levelRawValue == record.level.rawValue
          && header?.timeNanoseconds == record.timeNanoseconds,
        "the header disagrees with the decoded record")
      let encoded = LogRecordFormat.encode(record)
      FuzzCheck.require(
        encoded.count == bytes.count,
        "a record of \(bytes.count) bytes re-encodes to \(encoded.count)")
      let size = LogRecordFormat.encodedSize(record.input)
      FuzzCheck.require(size == encoded.count, "the computed size \(size) is not \(encoded.count)")
      guard let again = try? LogRecordFormat.decode(encoded, sequence: 7) else {
        FuzzCheck.fail("a decoded record re-encodes to bytes that do not decode")
      }
      FuzzCheck.require(again == record, "a re-encoded record changed meaning")
      if inOneOrder(record.metadata) {
        FuzzCheck.require(
          encoded == bytes, "a record whose maps have one key each re-encodes to other bytes")
      }
    },
    seeds: {
      let records = samples.map(LogRecordFormat.encode)
      // A torn record and one with a flipped bit, as a crash or the disk would leave them.
      let torn = Array(records[1].prefix(records[1].count / 2))
      var flipped = records[1]
      flipped[flipped.count / 2] ^= 0x10
      return records + [torn, flipped]
    })

  /// Whether `metadata` encodes in one order only: no map in it has more than one key.
  static func inOneOrder(_ metadata: LogMetadata) -> Bool {
    metadata.count <= 1 && metadata.values.allSatisfy(inOneOrder)
  }

  static func inOneOrder(_ value: LogMetadataValue) -> Bool {
    switch value {
    case .string, .stringConvertible: true
    case .dictionary(let entries): inOneOrder(entries)
    case .array(let values): values.allSatisfy(inOneOrder)
    }
  }

  /// Records as the log spool writes them: plain, with every kind of metadata value, nested.
  static let samples: [LogRecord] = {
    var nested: LogMetadataValue = .string("leaf")
    for depth in 0..<4 { nested = depth % 2 == 0 ? .array([nested]) : .dictionary(["k": nested]) }
    return [
      LogRecord(
        timeNanoseconds: 1_700_000_000_123_456_789, level: .info, label: "app", message: "started"),
      LogRecord(
        timeNanoseconds: -5, level: .error, label: "com.example.payments",
        message: "card declined — retry in 30 s",
        metadata: [
          "request-id": .string("01HZX"), "attempt": .stringConvertible("3"),
          "tags": .array([.string("a"), .string("b")]),
          "context": .dictionary(["user": .string("u1")]),
          "deep": nested,
        ],
        source: "Payments", file: "Payments/Charge.swift", function: "charge(_:)", line: 128),
      LogRecord(
        timeNanoseconds: 0, level: .critical, label: "", message: "",
        metadata: ["only": .string("one")], line: 1 << 40),
    ]
  }()
}
