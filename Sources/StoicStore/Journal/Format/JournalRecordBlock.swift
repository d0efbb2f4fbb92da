/// The raw bytes of a data block in a compressed segment (format version 2): a run of records
/// with consecutive sequences, each payload front- and back-coded against the one before it.
///
/// Layout: `first:u64 | count:u32 | prefixWidth:u8 | suffixWidth:u8 | restWidth:u8 | 0:u8`,
/// then three columns of `count` unsigned values each (the shared prefix, the shared suffix and
/// the rest length of every record), each column `width` bytes per value (0...4; 0 means all
/// zero) stored as `width` byte planes (plane `k` holds byte `k`, little-endian, of every value),
/// then the rests back to back, nothing after them. Record `i` has sequence `first + i` and the
/// payload `previous[0..<prefix] + rest + previous[(previous.count - suffix)...]`, where
/// `previous` is the payload of record `i - 1` (empty for record 0).
///
/// Consecutive log records share their start (keys, timestamp prefix) and often their end, so
/// this removes what an LZ match would otherwise encode once per record; the columns and the
/// rests are compressed as two zstd frames, which keeps the small column values out of the
/// literal statistics of the text.
enum JournalRecordBlock {
  static let headerSize = 16
  /// The most records one block holds (bounds the reader's per-block index).
  static let maximumRecords = 1 << 16

  /// Collects records for one block.
  struct Encoder {
    private(set) var first: UInt64 = 0
    private(set) var count = 0
    /// Payload bytes collected so far.
    private(set) var payloadBytes = 0
    private var prefixes: [UInt32] = []
    private var suffixes: [UInt32] = []
    private var restLengths: [UInt32] = []
    private(set) var rests: [UInt8] = []
    private var previous: [UInt8] = []

    var isEmpty: Bool { count == 0 }

    /// Whether a record with `sequence` and `payloadCount` bytes may join this block without
    /// breaking the consecutive sequences or growing it past `target` payload bytes (a first
    /// record is always accepted).
    func accepts(sequence: UInt64, payloadCount: Int, target: Int) -> Bool {
      guard count > 0 else { return true }
      return sequence == first &+ UInt64(count) && count < JournalRecordBlock.maximumRecords
        && payloadBytes + payloadCount <= target
    }

    mutating func append(sequence: UInt64, payload: UnsafeRawBufferPointer) {
      if count == 0 { first = sequence }
      let (prefix, suffix) = previous.withUnsafeBytes {
        JournalRecordBlock.shared(payload, previous: $0)
      }
      prefixes.append(UInt32(truncatingIfNeeded: prefix))
      suffixes.append(UInt32(truncatingIfNeeded: suffix))
      restLengths.append(UInt32(truncatingIfNeeded: payload.count - prefix - suffix))
      rests.append(
        contentsOf: UnsafeRawBufferPointer(rebasing: payload[prefix..<(payload.count - suffix)]))
      previous.removeAll(keepingCapacity: true)
      previous.append(contentsOf: payload)
      count += 1
      payloadBytes += payload.count
    }

    /// The header and the three columns (the rests are ``rests``).
    func columns() -> [UInt8] {
      let widths = [prefixes, suffixes, restLengths].map(JournalRecordBlock.width(of:))
      var buffer: [UInt8] = []
      buffer.reserveCapacity(headerSize + count * widths.reduce(0, +))
      buffer.appendLittleEndian(first)
      buffer.appendLittleEndian(UInt32(truncatingIfNeeded: count))
      buffer.append(contentsOf: widths.map { UInt8($0) } + [0])
      for (column, width) in zip([prefixes, suffixes, restLengths], widths) {
        for plane in 0..<width {
          for value in column { buffer.append(UInt8(truncatingIfNeeded: value >> (8 * plane))) }
        }
      }
      return buffer
    }

    /// Empties the block, keeping its storage.
    mutating func reset() {
      count = 0
      payloadBytes = 0
      prefixes.removeAll(keepingCapacity: true)
      suffixes.removeAll(keepingCapacity: true)
      restLengths.removeAll(keepingCapacity: true)
      rests.removeAll(keepingCapacity: true)
      previous.removeAll(keepingCapacity: true)
    }
  }

  /// The bytes needed for the largest value of `column` (0 if all are zero).
  static func width(of column: [UInt32]) -> Int {
    let largest = column.max() ?? 0
    return (UInt32.bitWidth - largest.leadingZeroBitCount + 7) / 8
  }

  /// How many bytes `current` shares with `previous` at its start, and then at its end (the
  /// two never overlap in `current`).
  static func shared(_ current: UnsafeRawBufferPointer, previous: UnsafeRawBufferPointer) -> (
    prefix: Int, suffix: Int
  ) {
    let prefixLimit = min(current.count, previous.count)
    var prefix = 0
    var differs = false
    while prefix + 8 <= prefixLimit {
      let a = current.loadLittleEndian(UInt64.self, at: prefix)
      let b = previous.loadLittleEndian(UInt64.self, at: prefix)
      if a != b {
        prefix += (a ^ b).trailingZeroBitCount / 8
        differs = true
        break
      }
      prefix += 8
    }
    if !differs {
      while prefix < prefixLimit, current[prefix] == previous[prefix] { prefix += 1 }
    }
    let suffixLimit = min(current.count - prefix, previous.count)
    var suffix = 0
    differs = false
    while suffix + 8 <= suffixLimit {
      let a = current.loadLittleEndian(UInt64.self, at: current.count - suffix - 8)
      let b = previous.loadLittleEndian(UInt64.self, at: previous.count - suffix - 8)
      if a != b {
        suffix += (a ^ b).leadingZeroBitCount / 8
        differs = true
        break
      }
      suffix += 8
    }
    if !differs {
      while suffix < suffixLimit,
        current[current.count - 1 - suffix] == previous[previous.count - 1 - suffix]
      {
        suffix += 1
      }
    }
    return (prefix, suffix)
  }

  /// Checks the structure of a block's raw bytes and rebuilds its payloads into `payloads`
  /// (back to back from its start; record `i` ends at `ends[i]`; `payloads` only grows, its
  /// bytes past the last end are unspecified). Returns the first sequence and the record
  /// count, or `nil` if the bytes are not a well-formed block: a width above 4, a column or a
  /// rest past the end, bytes left over, a prefix or suffix longer than the record before it, a
  /// payload over `maxRecordSize`, more than ``maximumRecords`` records or more than
  /// `payloadLimit` payload bytes in all. Never reads or writes out of bounds. `columns` is
  /// scratch space, reused between calls.
  static func decode(
    _ raw: UnsafeRawBufferPointer, maxRecordSize: Int, payloadLimit: Int,
    payloads: inout [UInt8], ends: inout [Int], columns: inout [Int]
  ) -> (first: UInt64, count: Int)? {
    guard raw.count >= headerSize else { return nil }
    let first = raw.loadLittleEndian(UInt64.self, at: 0)
    let count = Int(raw.loadLittleEndian(UInt32.self, at: 8))
    let widths = [Int(raw[12]), Int(raw[13]), Int(raw[14])]
    guard count >= 1, count <= maximumRecords, widths.allSatisfy({ $0 <= 4 }), raw[15] == 0
    else { return nil }
    let columnsEnd = headerSize + count * (widths[0] + widths[1] + widths[2])
    guard columnsEnd <= raw.count else { return nil }
    // The three columns, unpacked from their planes: prefixes, suffixes, rest lengths.
    if columns.count < 3 * count {
      columns.append(contentsOf: repeatElement(0, count: 3 * count - columns.count))
    }
    columns.withUnsafeMutableBufferPointer { values in
      var planeStart = headerSize
      for column in 0..<3 {
        let base = column * count
        for index in base..<(base + count) { values[index] = 0 }
        for plane in 0..<widths[column] {
          let shift = 8 * plane
          for index in 0..<count {
            values[base + index] |= Int(raw[planeStart + index]) << shift
          }
          planeStart += count
        }
      }
    }
    // Every length checks and the rests fill the block exactly.
    if ends.count != count {
      ends.removeAll(keepingCapacity: true)
      ends.append(contentsOf: repeatElement(0, count: count))
    }
    let total: Int? = columns.withUnsafeBufferPointer { values in
      ends.withUnsafeMutableBufferPointer { ends in
        var total = 0
        var previousCount = 0
        var restBytes = 0
        let restLimit = raw.count - columnsEnd
        for index in 0..<count {
          let prefix = values[index]
          let suffix = values[count + index]
          let rest = values[2 * count + index]
          guard prefix <= previousCount, suffix <= previousCount, rest <= restLimit - restBytes
          else { return nil }
          let size = prefix + rest + suffix
          guard size <= maxRecordSize, size <= payloadLimit - total else { return nil }
          restBytes += rest
          total += size
          ends[index] = total
          previousCount = size
        }
        return restBytes == restLimit ? total : nil
      }
    }
    guard let total else { return nil }
    // Rebuild the payloads, each from its rest and the payload before it.
    if payloads.count < total {
      payloads.append(contentsOf: repeatElement(0, count: total - payloads.count))
    }
    columns.withUnsafeBufferPointer { values in
      payloads.withUnsafeMutableBytes { out in
        guard let base = out.baseAddress, let source = raw.baseAddress else { return }
        var start = 0
        var previousStart = 0
        var cursor = columnsEnd
        for index in 0..<count {
          let prefix = values[index]
          let suffix = values[count + index]
          let rest = values[2 * count + index]
          let end = start + prefix + rest + suffix
          if prefix > 0 {
            (base + start).copyMemory(from: base + previousStart, byteCount: prefix)
          }
          (base + start + prefix).copyMemory(from: source + cursor, byteCount: rest)
          if suffix > 0 {
            (base + end - suffix).copyMemory(from: base + start - suffix, byteCount: suffix)
          }
          cursor += rest
          previousStart = start
          start = end
        }
      }
    }
    return (first, count)
  }
}
