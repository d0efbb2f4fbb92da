@testable import StoicTelemetry

/// The spool's drop counters file (`SpoolDropCountersFormat`): the state a file decodes to is
/// written as a new file that decodes to the same state, and no slot is trusted unless its
/// checksum and fields check.
enum DropCountersTarget {
  static let target = FuzzTarget(
    name: "drop-counters",
    summary: "drop counters file: decode, write the state as a new file, decode the same",
    maxLength: SpoolDropCountersFormat.fileSize + 64,
    run: { bytes in
      let (contents, newestDurable) = SpoolDropCountersFormat.decode(bytes)
      FuzzCheck.require((0..<2).contains(newestDurable), "durable slot \(newestDurable)")
      guard case .valid(let record) = contents else { return }
      FuzzCheck.require(record.generation > 0, "a slot of generation 0 was trusted")
      if let pending = record.pending {
        FuzzCheck.require(
          (0..<SpoolDropCountersFormat.counterSlots).contains(pending.reason),
          "a pending drop of reason \(pending.reason)")
      }
      let written = SpoolDropCountersFormat.newFile(record)
      guard case .valid(let again) = SpoolDropCountersFormat.decode(written).contents else {
        FuzzCheck.fail("a decoded state written as a new file does not decode")
      }
      FuzzCheck.require(again == record, "a decoded state written again changed")
    },
    seeds: {
      var record = SpoolDropCountersFormat.Record()
      record.generation = 41
      record.counts[.quota] = 1_000
      record.counts[.encoding] = 3
      var pending = record
      pending.generation = 42
      pending.pending = SpoolDropCountersFormat.PendingDrop(reason: 1, count: 17, through: 900)
      let first = SpoolDropCountersFormat.newFile(record)
      // A file whose live slot 2 holds a newer state (a change after the last sync).
      var second = first
      second.withUnsafeMutableBytes { buffer in
        let start = SpoolDropCountersFormat.offset(ofSlot: 2)
        SpoolDropCountersFormat.store(
          pending,
          into: UnsafeMutableRawBufferPointer(
            rebasing: buffer[start..<(start + SpoolDropCountersFormat.slotSize)]))
      }
      var torn = second
      torn[SpoolDropCountersFormat.offset(ofSlot: 2) + 20] ^= 0x01
      return [first, second, torn, Array(second.prefix(100))]
    })
}
