import StoicStore

/// The file of a spool's drop counters, `<root>/drops` (see ``SpoolDropCounters``).
///
/// ## Layout (version 1)
///
/// Little-endian, ``fileSize`` bytes: a header, then four slots of ``slotSize`` bytes, each a
/// whole copy of the counters with its own generation and CRC.
///
/// | offset | field | bytes |
/// | --- | --- | --- |
/// | 0 | magic `"STDC"` | 4 |
/// | 4 (``versionOffset``) | format version (``version``) | 1 |
/// | 5 | reserved, 0 | 3 |
/// | 8 (``slotsOffset``) | slots 0 and 1: *durable* copies, written only right before a sync | 2 × 168 |
/// | 344 | slots 2 and 3: *live* copies, written in turn at every change, never synced by themselves | 2 × 168 |
///
/// A slot:
///
/// | offset | field | bytes |
/// | --- | --- | --- |
/// | 0 (``generationOffset``) | generation (every change adds one; 0 is never written) | 8 |
/// | 8 (``pendingReasonOffset``) | a drop under way: its reason's slot + 1, or 0 | 1 |
/// | 9 | reserved, 0 | 7 |
/// | 16 (``pendingCountOffset``) | its record count | 8 |
/// | 24 (``pendingThroughOffset``) | the sequence it drops through | 8 |
/// | 32 (``countersOffset``) | ``counterSlots`` counters, one per ``SpoolDropReason`` (`rawValue`), the rest reserved | 128 |
/// | 160 (``crcOffset``) | CRC32C of bytes 0..<160 | 4 |
/// | 164 | reserved, 0 | 4 |
///
/// The valid slot with the highest generation is the state. A live write that a crash of the
/// process cut in the middle fails its CRC and leaves the other live slot, one change older. A
/// power loss can tear both live slots, never the durable one synced last: a durable slot is
/// written only to the slot that is not the newest synced one, and synced before the next
/// durable write.
enum SpoolDropCountersFormat {
  static let magic: [UInt8] = Array("STDC".utf8)
  static let version: UInt8 = 1
  static let versionOffset = 4
  static let slotsOffset = 8
  static let counterSlots = 16

  static let generationOffset = 0
  static let pendingReasonOffset = 8
  static let pendingCountOffset = 16
  static let pendingThroughOffset = 24
  static let countersOffset = 32
  static let crcOffset = countersOffset + 8 * counterSlots
  static let slotSize = crcOffset + 8
  /// Slots 0 and 1 are durable, 2 and 3 live.
  static let slotCount = 4
  static let fileSize = slotsOffset + slotCount * slotSize

  /// A drop whose records are being removed (a segment under the quota or the age limit): it
  /// is made durable before the removal, so that open can tell whether the removal happened.
  struct PendingDrop: Sendable, Hashable {
    var reason: Int
    var count: UInt64
    var through: UInt64
  }

  /// The state a slot holds.
  struct Record: Sendable, Hashable {
    var generation: UInt64 = 0
    var pending: PendingDrop?
    var counts = SpoolDropCounts()
  }

  /// What a file holds.
  enum Contents {
    case valid(Record)
    /// Written by a newer build: not interpreted.
    case newerVersion(UInt8)
    /// No valid slot, a wrong magic or size.
    case damaged(String)
  }

  static func offset(ofSlot slot: Int) -> Int { slotsOffset + slot * slotSize }

  /// A whole new file: the header, `record` in slot 0, the other slots zeros (invalid).
  static func newFile(_ record: Record) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: fileSize)
    bytes.replaceSubrange(0..<4, with: magic)
    bytes[versionOffset] = version
    bytes.withUnsafeMutableBytes { buffer in
      store(
        record,
        into: UnsafeMutableRawBufferPointer(
          rebasing: buffer[offset(ofSlot: 0)..<(offset(ofSlot: 0) + slotSize)]))
    }
    return bytes
  }

  /// Stores `record` into `slot`, which is exactly ``slotSize`` bytes.
  static func store(_ record: Record, into slot: UnsafeMutableRawBufferPointer) {
    func put(_ value: UInt64, _ offset: Int) {
      slot.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self)
    }
    put(record.generation, generationOffset)
    put(UInt64(record.pending.map { $0.reason + 1 } ?? 0), pendingReasonOffset)
    put(record.pending?.count ?? 0, pendingCountOffset)
    put(record.pending?.through ?? 0, pendingThroughOffset)
    for (index, value) in record.counts.slots.enumerated() {
      put(value, countersOffset + 8 * index)
    }
    let crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: slot[0..<crcOffset]))
    slot.storeBytes(of: UInt64(crc).littleEndian, toByteOffset: crcOffset, as: UInt64.self)
  }

  /// The record of a slot, or `nil` when its CRC or its fields do not check.
  static func record(inSlot slot: UnsafeRawBufferPointer) -> Record? {
    guard slot.count == slotSize else { return nil }
    func get(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: slot.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    let crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: slot[0..<crcOffset]))
    guard get(crcOffset) == UInt64(crc) else { return nil }
    var record = Record()
    record.generation = get(generationOffset)
    guard record.generation > 0 else { return nil }
    let pendingReason = get(pendingReasonOffset)
    if pendingReason > 0 {
      guard pendingReason <= UInt64(counterSlots) else { return nil }
      record.pending = PendingDrop(
        reason: Int(pendingReason) - 1, count: get(pendingCountOffset),
        through: get(pendingThroughOffset))
    }
    for index in 0..<counterSlots {
      record.counts.slots[index] = get(countersOffset + 8 * index)
    }
    return record
  }

  /// Reads a whole file: the valid slot with the highest generation, and which durable slot is
  /// the newest valid one (the next durable write goes to the other).
  static func decode(_ bytes: [UInt8]) -> (contents: Contents, newestDurableSlot: Int) {
    guard bytes.count >= slotsOffset, Array(bytes[0..<4]) == magic else {
      return (.damaged("bad magic or a short file of \(bytes.count) bytes"), 0)
    }
    let fileVersion = bytes[versionOffset]
    if fileVersion > version { return (.newerVersion(fileVersion), 0) }
    guard fileVersion == version, bytes.count >= fileSize else {
      return (.damaged("version \(fileVersion), \(bytes.count) bytes"), 0)
    }
    var best: Record?
    var newestDurable = (slot: 0, generation: UInt64(0))
    bytes.withUnsafeBytes { buffer in
      for slot in 0..<slotCount {
        let start = offset(ofSlot: slot)
        guard
          let record = record(
            inSlot: UnsafeRawBufferPointer(rebasing: buffer[start..<(start + slotSize)]))
        else { continue }
        if record.generation > (best?.generation ?? 0) { best = record }
        if slot < 2, record.generation > newestDurable.generation {
          newestDurable = (slot, record.generation)
        }
      }
    }
    guard let best else { return (.damaged("no slot checks"), 0) }
    return (.valid(best), newestDurable.slot)
  }
}
