/// The byte layout of the frames in a journal segment (see ``Journal`` for the whole format).
///
/// Record: `length:u32 | crc32c:u32 | sequence:u64 | payload`, little-endian; `length` counts
/// the sequence and the payload, the CRC covers the four length bytes and the body.
///
/// Sync marker: the same header with the top bit of `length` set and a fixed body
/// `durableSequence:u64 | durableEnd:u64 | segmentFirst:u64 | position:u64`. It is appended only
/// after a sync covering `[0, durableEnd)` returned, names the segment and its own offset, so a
/// valid marker is proof that everything before `durableEnd` in that file had been durable.
enum JournalFrame {
  /// Where each field of a frame lies, from the frame's start.
  enum Offset {
    /// `length:u32`: the bytes after the CRC (sequence and payload, or a marker's body), with
    /// ``JournalFrame/markerFlag`` set for a sync marker.
    static let length = 0
    /// `crc32c:u32` over the length bytes and the body.
    static let checksum = 4
    /// `sequence:u64`, where the body (and the checksummed bytes after the length) starts;
    /// a marker's `durableSequence`.
    static let sequence = 8
    /// A marker's `durableEnd:u64`.
    static let durableEnd = 16
    /// A marker's `segmentFirst:u64`.
    static let segmentFirst = 24
    /// A marker's `position:u64`.
    static let position = 32
  }

  /// Bytes before the payload: length, crc, sequence.
  static let headerSize = 16
  /// Set in `length` for a sync marker.
  static let markerFlag: UInt32 = 0x8000_0000
  /// The marker's body length (sequence + three u64 fields).
  static let markerBodyLength: UInt32 = 32
  /// A whole marker frame.
  static let markerSize = Offset.sequence + Int(markerBodyLength)

  /// The largest sequence a valid frame may carry: far beyond any real journal, and low enough
  /// that arithmetic on sequences read from disk can never overflow.
  static let maximumSequence: UInt64 = 1 << 62

  /// The size of a record frame with `payloadCount` bytes.
  static func recordSize(payloadCount: Int) -> Int { headerSize + payloadCount }

  /// Appends a record frame to `buffer`, encoded by ``storeRecord(sequence:payload:into:)``.
  static func appendRecord(sequence: UInt64, payload: [UInt8], to buffer: inout [UInt8]) {
    let start = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: recordSize(payloadCount: payload.count)))
    buffer.withUnsafeMutableBytes { all in
      payload.withUnsafeBytes { bytes in
        storeRecord(
          sequence: sequence, payload: bytes,
          into: UnsafeMutableRawBufferPointer(rebasing: all[start...]))
      }
    }
  }

  /// Stores a record frame into `frame`, which is exactly ``recordSize(payloadCount:)`` bytes:
  /// the header, then the payload, and the CRC over the length bytes and the contiguous body.
  static func storeRecord(
    sequence: UInt64, payload: UnsafeRawBufferPointer, into frame: UnsafeMutableRawBufferPointer
  ) {
    storeRecord(sequence: sequence, payloadCount: payload.count, into: frame) { body in
      if let source = payload.baseAddress, let base = body.baseAddress {
        base.copyMemory(from: source, byteCount: payload.count)
      }
    }
  }

  /// Stores a record frame of a `payloadCount`-byte payload that `encode` writes in place: it is
  /// given exactly the payload's bytes of `frame` and must fill them all. The header and the CRC
  /// are stored around them.
  static func storeRecord(
    sequence: UInt64, payloadCount: Int, into frame: UnsafeMutableRawBufferPointer,
    encode: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    let length = UInt32(8 + payloadCount)
    frame.storeLittleEndian(length, at: Offset.length)
    frame.storeLittleEndian(sequence, at: Offset.sequence)
    encode(UnsafeMutableRawBufferPointer(rebasing: frame[headerSize..<(headerSize + payloadCount)]))
    let stored = UnsafeRawBufferPointer(frame)
    let crc = CRC32C.checksum(
      UnsafeRawBufferPointer(rebasing: stored[Offset.sequence...]),
      continuing: CRC32C.checksum(
        UnsafeRawBufferPointer(rebasing: stored[Offset.length..<Offset.checksum])))
    frame.storeLittleEndian(crc, at: Offset.checksum)
  }

  /// A marker frame written at `position` of the segment starting at `segmentFirst`.
  static func marker(
    durableSequence: UInt64, durableEnd: UInt64, segmentFirst: UInt64, position: UInt64
  ) -> [UInt8] {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(markerSize)
    buffer.appendLittleEndian(markerFlag | markerBodyLength)
    buffer.appendLittleEndian(UInt32(0))
    buffer.appendLittleEndian(durableSequence)
    buffer.appendLittleEndian(durableEnd)
    buffer.appendLittleEndian(segmentFirst)
    buffer.appendLittleEndian(position)
    let crc = CRC32C.checksum(
      Array(buffer[Offset.sequence...]),
      continuing: CRC32C.checksum(Array(buffer[Offset.length..<Offset.checksum])))
    buffer.storeLittleEndian(crc, at: Offset.checksum)
    return buffer
  }

  /// What is at an offset of a segment.
  enum Decoded: Equatable {
    /// A record frame of `size` bytes, header included, holding record `sequence`; its payload
    /// is the `size - headerSize` bytes after the header.
    case record(sequence: UInt64, size: Int)
    /// A sync marker claiming `[0, durableEnd)` durable.
    case marker(durableSequence: UInt64, durableEnd: UInt64)
    /// The frame is longer than the bytes given; `size` bytes are needed to decide.
    case needsMore(size: Int)
    /// Not a valid frame.
    case invalid
  }

  /// Decodes the frame at the start of `bytes` (which lie at `position` in a segment).
  ///
  /// `bytes` may end early: the answer is then ``Decoded/needsMore(size:)`` if the header is
  /// plausible. `available` says how many bytes the file really has from `position` on, so a
  /// frame that cannot fit is invalid at once.
  static func decode(
    _ bytes: UnsafeRawBufferPointer, position: UInt64, available: UInt64,
    segmentFirst: UInt64, maxRecordSize: Int
  ) -> Decoded {
    guard bytes.count >= Offset.sequence, available >= UInt64(Offset.sequence) else {
      return .invalid
    }
    let rawLength = bytes.loadLittleEndian(UInt32.self, at: Offset.length)
    let isMarker = rawLength & markerFlag != 0
    let length = Int(rawLength & ~markerFlag)
    if isMarker {
      guard length == Int(markerBodyLength) else { return .invalid }
    } else {
      guard length >= 8, length - 8 <= maxRecordSize else { return .invalid }
    }
    let size = Offset.sequence + length
    guard UInt64(size) <= available else { return .invalid }
    guard bytes.count >= size else { return .needsMore(size: size) }
    let stored = bytes.loadLittleEndian(UInt32.self, at: Offset.checksum)
    let crc = CRC32C.checksum(
      UnsafeRawBufferPointer(rebasing: bytes[Offset.sequence..<size]),
      continuing: CRC32C.checksum(
        UnsafeRawBufferPointer(rebasing: bytes[Offset.length..<Offset.checksum])))
    guard crc == stored else { return .invalid }
    let sequence = bytes.loadLittleEndian(UInt64.self, at: Offset.sequence)
    if isMarker {
      let durableEnd = bytes.loadLittleEndian(UInt64.self, at: Offset.durableEnd)
      guard bytes.loadLittleEndian(UInt64.self, at: Offset.segmentFirst) == segmentFirst,
        bytes.loadLittleEndian(UInt64.self, at: Offset.position) == position,
        durableEnd <= position
      else { return .invalid }
      return .marker(durableSequence: sequence, durableEnd: durableEnd)
    }
    guard sequence >= max(segmentFirst, 1), sequence <= maximumSequence else { return .invalid }
    return .record(sequence: sequence, size: size)
  }
}
