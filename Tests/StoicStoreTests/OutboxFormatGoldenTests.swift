import Testing

@testable import StoicStore

/// The outbox's bytes, spelled out from the layout `OutboxFormat` documents: a change to the
/// encoder (or to the byte cursor it writes with) that moves one byte fails here.
@Suite struct OutboxFormatGoldenTests {
  /// A field: tag, u32 length, value.
  static func field(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
    [tag] + le32(value.count) + value
  }

  static func le32(_ value: Int) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
  }

  @Test func fieldedRecordsAreWrittenAsDocumented() {
    #expect(
      OutboxRecord.park(.batch("b"), error: "e").encoded()
        == [OutboxFormat.RecordKind.park, 1, 3, 0] + Self.field(1, [0x62]) + Self.field(3, [1])
        + Self.field(2, [0x65]))
    #expect(
      OutboxRecord.formBatch(batchKey: "b", keys: ["A", "BC"]).encoded()
        == [0x06, 1, 2, 0] + Self.field(1, [0x62])
        + Self.field(4, Self.le32(2) + Self.le32(1) + [0x41] + Self.le32(2) + [0x42, 0x43]))
    #expect(
      OutboxRecord.uploaded(key: "k", file: "/f").encoded()
        == [0x0A, 1, 2, 0] + Self.field(1, [0x6B]) + Self.field(5, [0x2F, 0x66]))
    var entry = StoredEntry(key: "K", item: [9])
    entry.createdAt = -2
    entry.attempts = 1
    #expect(
      OutboxRecord.enqueue(entry).encoded()
        == [0x03, 1, 4, 0] + Self.field(1, [0x4B]) + Self.field(2, [9])
        + Self.field(4, [0xFE] + [UInt8](repeating: 0xFF, count: 7))
        + Self.field(6, [1, 0, 0, 0, 0, 0, 0, 0]))
  }

  @Test func aSnapshotIsWrittenAsDocumented() throws {
    var ledger = OutboxLedger()
    ledger.apply(.enqueue(StoredEntry(key: "K", item: [9])))
    ledger.fileRemovals = ["/x"]
    let entry =
      [3, 0] + Self.field(1, [0x4B]) + Self.field(2, [9])
      + Self.field(4, [UInt8](repeating: 0, count: 8))
    let expected: [UInt8] =
      Array("SOBX".utf8) + [1, 0, 5, 0]
      + Self.field(1, Self.le32(1) + Self.le32(entry.count) + entry)
      + Self.field(2, Self.le32(0)) + Self.field(3, Self.le32(0)) + Self.field(4, Self.le32(0))
      + Self.field(5, Self.le32(1) + Self.le32(2) + [0x2F, 0x78])
    let bytes = try OutboxSnapshot.encode(ledger)
    #expect(bytes == expected)
    #expect(bytes[OutboxFormat.snapshotVersionOffset] == OutboxFormat.snapshotVersion)
    #expect(bytes[OutboxFormat.snapshotCompressionOffset] == OutboxFormat.Compression.none)
    let decoded = try OutboxSnapshot.decode(bytes, maxSize: 1 << 20)
    #expect(decoded.ledger.entries.map(\.key) == ["K"])
    #expect(decoded.ledger.fileRemovals == ["/x"])
  }
}
