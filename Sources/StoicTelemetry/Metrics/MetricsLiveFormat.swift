import CStoicAtomics
@_spi(Formats) import StoicStore

/// The layout of the metrics spool's live files (`live-<n>.map`, the extents): the running
/// aggregates of every series, updated in place with atomic instructions through a shared
/// mapping. The only place that knows these offsets.
///
/// All integers little-endian (cells are native words: every platform Stoic builds for is
/// little-endian). An extent is a file of `extentSize` bytes (reserved on disk when
/// it is mapped), a header, then series records one after another, each at a multiple of 64
/// bytes (a cache line, so two series' hot words never share one):
///
/// ```
/// header   offset 0   magic          u64  "STOICMLV" (``magic``)
///                 8   version        u16  1 (``version``)
///                10   headerSize     u16  64
///                12   extentIndex    u32  n of `live-<n>.map`
///                16   extentSize     u64  the file's size
///                24   boot           16 bytes: the machine's boot identity when written
///                40   headerCRC      u32  CRC32C of bytes 0..<40
///                44   reserved       u32  0
///                48   used           u64  end of the last published record (atomic; 64 when
///                                         empty); a record is published by a release store
///                                         of this word after all its bytes were stored
///                56   reserved       u64  0
/// record   offset 0   recordLength   u32  a multiple of 64
///                 4   recordCRC      u32  CRC32C of bytes 8..<16 and the descriptor
///                 8   kind           u8   MetricKind raw value
///                 9   reserved       u8   0
///                10   cellCount      u16  8-byte cells that follow (``cellCount(kind:bounds:)``)
///                12   descriptorSize u32
///                16   cells          cellCount × u64, updated atomically
///         16 + 8 × cellCount   descriptor  the series' identity as ``MetricSampleFormat``
///                                          encodes it; then zeros to recordLength
/// cells    0 start (unix ns), 1 sampled marker, 2 sampled start, then by kind:
///          counter: 3 value (two's complement); floatingPointCounter: 3 value (double);
///          gauge: 3 value (double), 4 updates; histogram: 3 sum, 4 min, 5 max (doubles; min
///          +∞ and max −∞ while empty), 6… bucket counts (bounds + 1)
/// ```
///
/// The cells are never covered by a checksum (they change with every increment); the header
/// and each record's identity are. The sampled marker and start are what the series' last
/// sample in the journal held (its kind's marker: counter value, double bits, gauge updates or
/// histogram count), so a reopened spool samples only series that changed since.
enum MetricsLiveFormat {
  /// "STOICMLV" as a little-endian u64.
  static let magic: UInt64 = 0x564C_4D43_494F_5453
  /// The version this build writes and reads.
  static let version: UInt16 = 1
  /// The header's size, and where the first record starts.
  static let headerSize = 64
  /// Header offsets.
  static let versionOffset = 8
  static let headerSizeOffset = 10
  static let extentIndexOffset = 12
  static let extentSizeOffset = 16
  static let bootOffset = 24
  static let bootSize = 16
  static let headerCRCOffset = 40
  static let usedOffset = 48
  /// Records start at multiples of this.
  static let recordAlignment = 64
  /// Record offsets.
  static let recordCRCOffset = 4
  static let recordKindOffset = 8
  static let recordCellCountOffset = 10
  static let recordDescriptorSizeOffset = 12
  static let recordHeaderSize = 16

  /// Cell indices.
  static let startCell = 0
  static let sampledMarkerCell = 1
  static let sampledStartCell = 2
  static let valueCell = 3
  static let gaugeUpdatesCell = 4
  static let histogramSumCell = 3
  static let histogramMinCell = 4
  static let histogramMaxCell = 5
  static let histogramFirstBucketCell = 6

  /// The smallest extent: a header and a few records.
  static let minimumExtentSize = 4096
  /// The largest extent accepted when reading one back: 1 GiB.
  static let maximumExtentSize: UInt64 = 1 << 30

  /// How many cells a series of `kind` with `boundCount` bounds has (its
  /// ``MetricSeriesKind/cellCount(boundCount:)``).
  static func cellCount(kind: MetricKind, boundCount: Int) -> Int {
    kind.series.cellCount(boundCount: boundCount)
  }

  // MARK: Header

  /// The 64 header bytes of extent `index` (with `used` at the first record).
  static func header(index: UInt32, extentSize: UInt64, boot: [UInt8]) -> [UInt8] {
    var writer = ByteWriter()
    writer.u64(magic)
    writer.u16(version)
    writer.u16(UInt16(headerSize))
    writer.u32(index)
    writer.u64(extentSize)
    writer.bytes.append(contentsOf: normalizedBoot(boot))
    let crc = CRC32C.checksum(writer.bytes)
    writer.u32(crc)
    writer.u32(0)
    writer.u64(UInt64(headerSize))
    writer.u64(0)
    return writer.bytes
  }

  /// A boot identity as stored: exactly ``bootSize`` bytes.
  static func normalizedBoot(_ boot: [UInt8]) -> [UInt8] {
    Array((boot + [UInt8](repeating: 0, count: bootSize)).prefix(bootSize))
  }

  /// What an extent's header says.
  enum Header: Equatable {
    /// A header this build wrote: the extent's index, size and boot identity.
    case valid(index: UInt32, extentSize: UInt64, boot: [UInt8])
    /// All zeros: an extent whose header was never written.
    case blank
    /// A later version of this format.
    case newerVersion(UInt16)
    /// Anything else, and why.
    case invalid(String)
  }

  /// Checks the first ``headerSize`` bytes of an extent whose file is `fileSize` bytes.
  static func parseHeader(_ bytes: [UInt8], fileSize: UInt64) -> Header {
    guard bytes.count >= headerSize else { return .invalid("header cut short") }
    if bytes.prefix(headerSize).allSatisfy({ $0 == 0 }) { return .blank }
    return bytes.withUnsafeBytes { raw -> Header in
      var reader = ByteReader(raw)
      guard reader.u64() == magic, let storedVersion = reader.u16() else {
        return .invalid("not a live file")
      }
      guard storedVersion == version else {
        return storedVersion > version ? .newerVersion(storedVersion) : .invalid("version 0")
      }
      guard reader.u16() == UInt16(headerSize), let index = reader.u32(),
        let size = reader.u64(), reader.skip(bootSize)
      else { return .invalid("header fields") }
      let crc = CRC32C.checksum(Array(bytes[0..<headerCRCOffset]))
      guard reader.u32() == crc else { return .invalid("header checksum") }
      guard size == fileSize, size >= UInt64(minimumExtentSize), size <= maximumExtentSize
      else { return .invalid("extent size \(size) for a file of \(fileSize) bytes") }
      return .valid(
        index: index, extentSize: size, boot: Array(bytes[bootOffset..<(bootOffset + bootSize)]))
    }
  }

  // MARK: Records

  /// A series record ready to be stored at a free offset: its bytes (cells as given) and where
  /// its cells start within them.
  static func record(key: MetricSeriesKey, cells: [UInt64]) -> [UInt8] {
    var descriptor = ByteWriter()
    MetricSampleFormat.encodeIdentity(key, into: &descriptor)
    var writer = ByteWriter()
    let unpadded = recordHeaderSize + cells.count * 8 + descriptor.bytes.count
    let length = (unpadded + recordAlignment - 1) / recordAlignment * recordAlignment
    writer.u32(UInt32(length))
    writer.u32(0)
    writer.u8(key.kind.rawValue)
    writer.u8(0)
    writer.u16(UInt16(cells.count))
    writer.u32(UInt32(descriptor.bytes.count))
    for cell in cells { writer.u64(cell) }
    writer.bytes.append(contentsOf: descriptor.bytes)
    writer.bytes.append(contentsOf: [UInt8](repeating: 0, count: length - unpadded))
    let crc = recordChecksum(writer.bytes, cellCount: cells.count)
    withUnsafeBytes(of: crc.littleEndian) { crcBytes in
      for index in 0..<4 { writer.bytes[recordCRCOffset + index] = crcBytes[index] }
    }
    return writer.bytes
  }

  /// CRC32C of a record's bytes 8..<16 and its descriptor (as far as the record holds it).
  private static func recordChecksum(_ record: some Collection<UInt8>, cellCount: Int) -> UInt32 {
    let bytes = Array(record)
    guard bytes.count >= recordHeaderSize else { return 0 }
    let descriptorSize = bytes.withUnsafeBytes {
      Int(
        UInt32(
          littleEndian: $0.loadUnaligned(
            fromByteOffset: recordDescriptorSizeOffset, as: UInt32.self)))
    }
    let descriptorStart = min(bytes.count, recordHeaderSize + cellCount * 8)
    let descriptorEnd = min(bytes.count, descriptorStart + descriptorSize)
    let crc = CRC32C.checksum(Array(bytes[recordKindOffset..<recordHeaderSize]))
    return CRC32C.checksum(Array(bytes[descriptorStart..<descriptorEnd]), continuing: crc)
  }

  /// A record read back from a mapped extent.
  struct StoredRecord {
    /// The series.
    var key: MetricSeriesKey
    /// The offset of its first cell in the extent.
    var cellsOffset: Int
    /// The offset of the next record.
    var end: Int
  }

  /// Reads the record at `offset` of an extent whose published records end at `used`: nil
  /// unless its length, checksum, kind, cell count and identity all check.
  static func parseRecord(_ extent: UnsafeRawBufferPointer, at offset: Int, used: Int)
    -> StoredRecord?
  {
    guard offset % recordAlignment == 0, offset >= headerSize, used <= extent.count,
      offset + recordHeaderSize <= used
    else { return nil }
    var reader = ByteReader(extent, at: offset)
    guard let length = reader.u32(), let crc = reader.u32(), let kindCode = reader.u8(),
      let kind = MetricKind(rawValue: kindCode), reader.u8() == 0, let cells = reader.u16(),
      let descriptorSize = reader.u32()
    else { return nil }
    let end = offset + Int(length)
    guard length > 0, Int(length) % recordAlignment == 0, end <= used,
      recordHeaderSize + Int(cells) * 8 + Int(descriptorSize) <= Int(length)
    else { return nil }
    let record = UnsafeRawBufferPointer(rebasing: extent[offset..<end])
    guard recordChecksum(record, cellCount: Int(cells)) == crc else { return nil }
    let descriptorStart = offset + recordHeaderSize + Int(cells) * 8
    var descriptor = ByteReader(
      UnsafeRawBufferPointer(rebasing: extent[..<(descriptorStart + Int(descriptorSize))]),
      at: descriptorStart)
    guard let key = MetricSampleFormat.decodeIdentity(&descriptor, kind: kind),
      descriptor.remaining == 0,
      Int(cells) == cellCount(kind: kind, boundCount: key.bounds.count)
    else { return nil }
    return StoredRecord(key: key, cellsOffset: offset + recordHeaderSize, end: end)
  }

  /// The `used` word of a mapped extent, read with acquire ordering (everything a record
  /// published before it is visible).
  static func loadUsed(_ base: UnsafeMutableRawPointer) -> UInt64 {
    UInt64(littleEndian: stoic_atomic_load_acquire(base + usedOffset))
  }

  /// Publishes records up to `used` (a release store, after their bytes).
  static func storeUsed(_ base: UnsafeMutableRawPointer, _ used: UInt64) {
    stoic_atomic_store_release(base + usedOffset, used.littleEndian)
  }
}
