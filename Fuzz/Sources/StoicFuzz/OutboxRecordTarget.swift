@testable import StoicStore

/// The outbox's journal records: what decodes re-encodes to bytes that decode again to the
/// same record (its encoding is the record's meaning: fields, unknown fields included, and
/// their order); what does not decode is only ever reported, never a crash.
enum OutboxRecordTarget {
  static let target = FuzzTarget(
    name: "outbox-record",
    summary: "outbox journal records: decode, re-encode, decode again to the same record",
    maxLength: 4096,
    run: { bytes in
      guard case .success(let record) = OutboxRecord.decode(bytes) else { return }
      let encoded = record.encoded()
      guard case .success(let again) = OutboxRecord.decode(encoded) else {
        FuzzCheck.fail("a decoded record re-encodes to bytes that do not decode")
      }
      FuzzCheck.require(again.encoded() == encoded, "a re-encoded record changed meaning")
    },
    seeds: { samples.map { $0.encoded() } + [seedEnqueue] })

  /// One record of each type, as the outbox writes them.
  static let samples: [OutboxRecord] = {
    var entry = StoredEntry(key: "01HZX-a", item: Array("{\"note\":\"trail\"}".utf8))
    entry.createdAt = 1_700_000_000_000
    entry.ownedFiles = ["/media/p1.jpg"]
    entry.filesToUpload = ["/media/p1.jpg"]
    var parked = StoredEntry(key: "b", item: [1, 2, 3])
    parked.state = .needsAttention
    parked.lastError = "422"
    parked.attempts = 2
    parked.batchKey = "batch-1"
    return [
      .enqueue(entry), .enqueue(parked), .acknowledge(key: "01HZX-a"),
      .acknowledgeBatch(batchKey: "batch-1"), .park(.entry("b"), error: "HTTP 422"),
      .park(.batch("batch-1"), error: "HTTP 400"), .requeue(key: "b"),
      .formBatch(batchKey: "batch-1", keys: ["a", "b"]), .attempt(.entry("a")),
      .discard(key: "b"), .uploaded(key: "a", file: "/media/p1.jpg"),
    ]
  }()

  /// The seed's enqueue layout (0x01 | keyLength:u16 | key | item), still read.
  static let seedEnqueue: [UInt8] = [0x01, 3, 0] + Array("key".utf8) + Array("item".utf8)
}
