@testable import StoicStore

/// The outbox's snapshot, loaded as the outbox loads it (decoded, then the records it carries
/// applied): encoding what was loaded and loading that again gives the same ledger.
enum OutboxSnapshotTarget {
  static let target = FuzzTarget(
    name: "outbox-snapshot",
    summary: "outbox snapshots: load, re-encode, load again to the same ledger",
    maxLength: 8192,
    run: { bytes in
      guard let ledger = load(bytes), let encoded = try? OutboxSnapshot.encode(ledger)
      else { return }
      guard let again = load(encoded) else {
        FuzzCheck.fail("a loaded snapshot re-encodes to one that does not load")
      }
      guard let reencoded = try? OutboxSnapshot.encode(again) else {
        FuzzCheck.fail("a reloaded snapshot does not encode")
      }
      FuzzCheck.require(reencoded == encoded, "a snapshot round trip changed the ledger")
    },
    seeds: {
      var ledger = OutboxLedger()
      for record in OutboxRecordTarget.samples { ledger.apply(record) }
      ledger.apply(.enqueue(StoredEntry(key: "c", item: Array("third".utf8))))
      ledger.unknownRecords.append(([0x7F, 1, 0, 0], "unknown record type 127"))
      guard let snapshot = try? OutboxSnapshot.encode(ledger) else { return [] }
      var flipped = snapshot
      flipped[snapshot.count / 2] ^= 0x10
      return [snapshot, flipped, Array(snapshot.prefix(snapshot.count - 5))]
    })

  /// What the outbox holds after loading `bytes` as its snapshot with no later records, or nil
  /// when the snapshot is refused.
  static func load(_ bytes: [UInt8]) -> OutboxLedger? {
    guard let decoded = try? OutboxSnapshot.decode(bytes, maxSize: 1 << 20) else { return nil }
    var ledger = decoded.ledger
    for record in decoded.records {
      switch OutboxRecord.decode(record) {
      case .success(let record): ledger.apply(record)
      case .failure(let reason): ledger.unknownRecords.append((record, reason.text))
      }
    }
    return ledger
  }
}
