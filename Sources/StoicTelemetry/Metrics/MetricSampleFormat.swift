@_spi(Formats) import StoicStore

/// The binary encoding of metric samples: a record of the metrics journal (one per flush, or
/// several when a flush's samples exceed ``maximumRecordBytes``), and the journal's snapshot
/// (the last sample of every series, kept when older records are dropped). The only place that
/// reads or writes these bytes.
///
/// All integers little-endian; a text is its UTF-8 length (u16) then its bytes; a double is its
/// IEEE 754 bit pattern (u64).
///
/// ```
/// record   offset 0  version       u8   1 (``version``); 0 is invalid
///                 1  reserved      u8   0
///                 2  reserved      u16  0
///                 4  sampleCount   u32
///                 8  samples       sampleCount × sample
/// sample   offset 0  length        u32  bytes of the sample after this field
///                 4  kind          u8   MetricKind raw value
///                 5  flags         u8   bit 0: a histogram with min and max; others 0
///                 6  reserved      u16  0
///                 8  start         u64  unix nanoseconds
///                16  time          u64  unix nanoseconds
///                24  identity      name text, unit text, dimensionCount u16 and per
///                                  dimension key text and value text, boundCount u16 and
///                                  boundCount × bound (double)
///                 …  value         by the kind's value shape (``MetricSeriesKind/valueShape``):
///                                  integer (counter): i64; double (floatingPointCounter,
///                                  gauge): double; histogram: (boundCount + 1) × bucket
///                                  count u64, sum, min, max (doubles; min and max all-zero
///                                  bits without flag bit 0)
/// ```
///
/// The identity part is also the descriptor of a series in the live file
/// (``MetricsLiveFormat``).
///
/// A record of a later version is never decoded: it is reported as
/// ``Decoded/newerVersion(_:)``, and the reader keeps and counts it. Decoding checks every
/// length against the bytes left, the kind, the flags, UTF-8, the bounds and that each sample
/// ends exactly where its length says, and never traps on any input. The encoding is canonical:
/// bytes that decode to samples are exactly the bytes those samples encode to.
enum MetricSampleFormat {
  /// The version this build writes and reads.
  static let version: UInt8 = 1
  /// The size of a record's header.
  static let recordHeaderSize = 8
  /// Offset of `sampleCount` in a record.
  static let sampleCountOffset = 4
  /// The size of a sample's fixed fields, its length included.
  static let sampleHeaderSize = 24
  /// Offsets within a sample.
  static let sampleKindOffset = 4
  static let sampleFlagsOffset = 5
  static let sampleStartOffset = 8
  static let sampleTimeOffset = 16
  /// Flag bit 0 of a sample: a histogram's min and max are present.
  static let hasMinMaxFlag: UInt8 = 1
  /// The most bytes a flush puts in one journal record before starting another.
  static let maximumRecordBytes = 256 << 10

  /// What a record turned out to hold.
  enum Decoded: Equatable {
    /// Its samples, in order.
    case samples([MetricSample])
    /// A record of a later version of this format: kept, not decoded.
    case newerVersion(UInt8)
    /// Bytes this format cannot have written, and why.
    case damaged(String)
  }

  // MARK: Encoding

  /// Encodes `samples` as one record.
  static func encode(_ samples: [MetricSample]) -> [UInt8] {
    var writer = ByteWriter()
    writer.u8(version)
    writer.u8(0)
    writer.u16(0)
    writer.u32(UInt32(truncatingIfNeeded: samples.count))
    for sample in samples { encode(sample, into: &writer) }
    return writer.bytes
  }

  /// Encodes `samples` as records of at most about ``maximumRecordBytes`` each (one sample is
  /// never split).
  static func encodeRecords(_ samples: [MetricSample]) -> [[UInt8]] {
    var records: [[UInt8]] = []
    var pending: [MetricSample] = []
    var size = recordHeaderSize
    for sample in samples {
      let sampleSize = encodedSize(sample)
      if !pending.isEmpty && size + sampleSize > maximumRecordBytes {
        records.append(encode(pending))
        pending = []
        size = recordHeaderSize
      }
      pending.append(sample)
      size += sampleSize
    }
    if !pending.isEmpty { records.append(encode(pending)) }
    return records
  }

  /// The bytes ``encode(_:into:)`` writes for `sample`.
  static func encodedSize(_ sample: MetricSample) -> Int {
    var writer = ByteWriter()
    encode(sample, into: &writer)
    return writer.bytes.count
  }

  private static func encode(_ sample: MetricSample, into writer: inout ByteWriter<[UInt8]>) {
    var body = ByteWriter()
    body.u8(sample.kind.rawValue)
    var histogram: MetricHistogram?
    if case .histogram(let value) = sample.value { histogram = value }
    let hasMinMax = histogram.map { $0.min != nil && $0.max != nil } ?? false
    body.u8(hasMinMax ? hasMinMaxFlag : 0)
    body.u16(0)
    body.u64(sample.startNanoseconds)
    body.u64(sample.timeNanoseconds)
    encodeIdentity(MetricSeriesKey(sample), into: &body)
    switch sample.value {
    case .integer(let value):
      body.u64(UInt64(bitPattern: value))
    case .double(let value):
      body.double(value)
    case .histogram(let value):
      for count in value.bucketCounts { body.u64(count) }
      body.double(value.sum)
      body.double(hasMinMax ? value.min ?? 0 : 0)
      body.double(hasMinMax ? value.max ?? 0 : 0)
    }
    writer.u32(UInt32(truncatingIfNeeded: body.bytes.count))
    writer.bytes.append(contentsOf: body.bytes)
  }

  /// Appends a series' identity: name, unit, dimensions, bounds.
  static func encodeIdentity(_ key: MetricSeriesKey, into writer: inout ByteWriter<[UInt8]>) {
    writer.shortText(key.name)
    writer.shortText(key.unit)
    writer.u16(UInt16(truncatingIfNeeded: key.dimensions.count))
    for dimension in key.dimensions {
      writer.shortText(dimension.key)
      writer.shortText(dimension.value)
    }
    writer.u16(UInt16(truncatingIfNeeded: key.bounds.count))
    for bound in key.bounds { writer.double(bound) }
  }

  // MARK: Decoding

  /// Decodes one record, whatever its bytes.
  static func decode(_ bytes: UnsafeRawBufferPointer) -> Decoded {
    var reader = ByteReader(bytes)
    guard let recordVersion = reader.u8() else { return .damaged("empty record") }
    guard recordVersion != 0 else { return .damaged("version 0") }
    guard recordVersion == version else { return .newerVersion(recordVersion) }
    guard let flags = reader.u8(), let reserved = reader.u16(), let count = reader.u32() else {
      return .damaged("record header cut short")
    }
    guard flags == 0, reserved == 0 else { return .damaged("reserved header bits set") }
    // Each sample takes at least its fixed fields, so a count larger than that allows is a lie
    // (and must not size an allocation).
    guard Int(count) <= reader.remaining / sampleHeaderSize else {
      return .damaged("\(count) samples cannot fit in \(reader.remaining) bytes")
    }
    var samples: [MetricSample] = []
    samples.reserveCapacity(Int(count))
    for index in 0..<Int(count) {
      switch decodeSample(&reader) {
      case .success(let sample): samples.append(sample)
      case .failure(let failure): return .damaged("sample \(index): \(failure.reason)")
      }
    }
    guard reader.remaining == 0 else {
      return .damaged("\(reader.remaining) bytes after the last sample")
    }
    return .samples(samples)
  }

  /// Decodes one record held in an array.
  static func decode(_ bytes: [UInt8]) -> Decoded {
    bytes.withUnsafeBytes { decode($0) }
  }

  /// Why a sample did not decode.
  struct Failure: Error {
    let reason: String
  }

  private static func decodeSample(_ reader: inout ByteReader) -> Result<
    MetricSample, Failure
  > {
    guard let length = reader.u32(), Int(length) <= reader.remaining else {
      return .failure(Failure(reason: "length runs past the record"))
    }
    let end = reader.offset + Int(length)
    var body = ByteReader(
      UnsafeRawBufferPointer(rebasing: reader.bytes[..<end]), at: reader.offset)
    _ = reader.skip(Int(length))
    guard let kindCode = body.u8(), let kind = MetricKind(rawValue: kindCode) else {
      return .failure(Failure(reason: "unknown kind"))
    }
    guard let flags = body.u8(), flags & ~hasMinMaxFlag == 0,
      flags == 0 || kind.series.valueShape == .histogram, body.u16() == 0
    else { return .failure(Failure(reason: "bad flags")) }
    guard let start = body.u64(), let time = body.u64() else {
      return .failure(Failure(reason: "times cut short"))
    }
    guard let key = decodeIdentity(&body, kind: kind) else {
      return .failure(Failure(reason: "bad identity"))
    }
    let value: MetricSample.Value
    switch kind.series.valueShape {
    case .integer:
      guard let bits = body.u64() else { return .failure(Failure(reason: "value cut short")) }
      value = .integer(Int64(bitPattern: bits))
    case .double:
      guard let number = body.double() else {
        return .failure(Failure(reason: "value cut short"))
      }
      value = .double(number)
    case .histogram:
      guard let histogram = decodeHistogram(&body, bounds: key.bounds, flags: flags) else {
        return .failure(Failure(reason: "histogram cut short"))
      }
      value = .histogram(histogram)
    }
    guard body.remaining == 0 else {
      return .failure(Failure(reason: "\(body.remaining) bytes after the value"))
    }
    return .success(
      MetricSample(
        name: key.name, dimensions: key.dimensions, kind: kind, unit: key.unit,
        startNanoseconds: start, timeNanoseconds: time, value: value))
  }

  private static func decodeHistogram(
    _ reader: inout ByteReader, bounds: [Double], flags: UInt8
  ) -> MetricHistogram? {
    guard (bounds.count + 1) * 8 <= reader.remaining else { return nil }
    var counts: [UInt64] = []
    counts.reserveCapacity(bounds.count + 1)
    for _ in 0...bounds.count {
      guard let count = reader.u64() else { return nil }
      counts.append(count)
    }
    guard let sum = reader.double(), let min = reader.double(), let max = reader.double() else {
      return nil
    }
    let hasMinMax = flags & hasMinMaxFlag != 0
    // Without the flag, min and max are written as zeros: anything else was not written here.
    guard hasMinMax || (min.bitPattern == 0 && max.bitPattern == 0) else { return nil }
    return MetricHistogram(
      bounds: bounds, bucketCounts: counts, sum: sum, min: hasMinMax ? min : nil,
      max: hasMinMax ? max : nil)
  }

  /// Reads a series' identity written by ``encodeIdentity(_:into:)``: nil unless the texts are
  /// UTF-8, the dimensions sorted and at most ``MetricSeriesKey/maximumDimensions``, and the
  /// bounds valid for a histogram and absent otherwise.
  static func decodeIdentity(_ reader: inout ByteReader, kind: MetricKind)
    -> MetricSeriesKey?
  {
    guard let name = reader.shortText(), let unit = reader.shortText(),
      let dimensionCount = reader.u16(),
      Int(dimensionCount) <= MetricSeriesKey.maximumDimensions
    else { return nil }
    var dimensions: [MetricDimension] = []
    for _ in 0..<Int(dimensionCount) {
      guard let key = reader.shortText(), let value = reader.shortText() else { return nil }
      let dimension = MetricDimension(key, value)
      if let last = dimensions.last, dimension < last { return nil }
      dimensions.append(dimension)
    }
    guard let boundCount = reader.u16(), Int(boundCount) <= MetricHistogram.maximumBoundCount,
      kind.series.valueShape == .histogram || boundCount == 0,
      Int(boundCount) * 8 <= reader.remaining
    else { return nil }
    var bounds: [Double] = []
    bounds.reserveCapacity(Int(boundCount))
    for _ in 0..<Int(boundCount) {
      guard let bound = reader.double() else { return nil }
      bounds.append(bound)
    }
    guard MetricHistogram.isValid(bounds: bounds) else { return nil }
    return MetricSeriesKey(
      kind: kind, name: name, unit: unit, sortedDimensions: dimensions, bounds: bounds)
  }
}
