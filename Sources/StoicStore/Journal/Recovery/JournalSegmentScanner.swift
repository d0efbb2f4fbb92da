#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Walks the frames of a `.log` segment in order through a ``JournalWindowReader``, and
/// answers the two questions recovery asks at damage: was it durable (a valid sync marker
/// after it claims it), and where do valid frames start again.
struct JournalSegmentScanner {
  /// One step of the walk.
  enum Item {
    /// A valid record frame of `size` bytes at `offset`.
    case record(sequence: UInt64, offset: UInt64, size: Int)
    /// A valid sync marker at `offset`.
    case marker(offset: UInt64, durableEnd: UInt64)
    /// No valid frame at `offset` (torn, garbage, a hole, or a sequence that does not
    /// increase).
    case damage(offset: UInt64)
  }

  var reader: JournalWindowReader
  let segmentFirst: UInt64
  let maxRecordSize: Int
  /// Where the next frame is expected.
  var offset: UInt64 = 0
  /// The last record sequence accepted (records must exceed it).
  var previousSequence: UInt64
  /// The last valid sync marker walked over: where it is and what it claims.
  var lastMarker: Marker?
  /// How many offsets ``durableClaim(after:)`` and ``resynchronize(after:)`` have looked at
  /// one by one (a run of zeros is passed in one step).
  private(set) var steps = 0

  /// A sync marker found by the walk.
  struct Marker: Equatable {
    /// Where the marker frame starts.
    var offset: UInt64
    /// The last sequence it claims durable.
    var durableSequence: UInt64
    /// The end of the bytes it claims durable.
    var durableEnd: UInt64
  }

  init(
    reader: JournalWindowReader, segmentFirst: UInt64, previousSequence: UInt64,
    maxRecordSize: Int
  ) {
    self.reader = reader
    self.segmentFirst = segmentFirst
    self.previousSequence = previousSequence
    self.maxRecordSize = maxRecordSize
  }

  /// The next item, or `nil` at the end of the file. After `.damage` the offset stays put; the
  /// caller decides (cut, refuse, or resync and set ``offset``).
  mutating func next() throws(StoreError) -> Item? {
    guard offset < reader.fileSize else { return nil }
    let decoded = try decode(at: offset)
    switch decoded {
    case .record(let sequence, let size):
      guard sequence > previousSequence else { return .damage(offset: offset) }
      let item = Item.record(sequence: sequence, offset: offset, size: size)
      previousSequence = sequence
      offset += UInt64(size)
      return item
    case .marker(let durableSequence, let durableEnd):
      lastMarker = Marker(
        offset: offset, durableSequence: durableSequence, durableEnd: durableEnd)
      let item = Item.marker(offset: offset, durableEnd: durableEnd)
      offset += UInt64(JournalFrame.markerSize)
      return item
    case .needsMore, .invalid:
      return .damage(offset: offset)
    }
  }

  /// Walks every frame from ``offset`` to the end of the file, calling `body` with each
  /// record's sequence and payload borrowed from the read window (valid only inside `body`),
  /// each checked exactly as ``next()`` checks it; markers are skipped (the last one is kept
  /// in ``lastMarker``). Returns `nil` at the
  /// end of the file, or the offset of the first damage (``offset`` then stays there).
  ///
  /// The frames in the window are decoded in one pass over it, without a step per record
  /// through ``next()``.
  /// - Throws: What `body` throws; the file system's errors.
  mutating func forEachRecord(
    _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) -> UInt64? {
    let fileSize = reader.fileSize
    let segmentFirst = self.segmentFirst
    let maxRecordSize = self.maxRecordSize
    while offset < fileSize {
      var index = try reader.load(at: offset, count: JournalFrame.headerSize)
      var position = offset
      var previous = previousSequence
      var marker = lastMarker
      // What stopped the walk through the window: the end, damage, or a frame not all in it.
      var stop = Stop.end
      var needed = 0
      defer {
        offset = position
        previousSequence = previous
        lastMarker = marker
      }
      try reader.buffer.withStoreBytes { (all) throws(StoreError) in
        while position < fileSize {
          let remaining = all.count - index
          if remaining < JournalFrame.headerSize, UInt64(remaining) < fileSize - position {
            stop = .reload
            needed = JournalFrame.headerSize
            return
          }
          let decoded = JournalFrame.decode(
            UnsafeRawBufferPointer(rebasing: all[index...]), position: position,
            available: fileSize - position, segmentFirst: segmentFirst,
            maxRecordSize: maxRecordSize)
          switch decoded {
          case .record(let sequence, let size):
            guard sequence > previous else {
              stop = .damage
              return
            }
            try body(
              sequence,
              UnsafeRawBufferPointer(
                rebasing: all[(index + JournalFrame.headerSize)..<(index + size)]))
            previous = sequence
            index += size
            position += UInt64(size)
          case .marker(let durableSequence, let durableEnd):
            marker = Marker(
              offset: position, durableSequence: durableSequence, durableEnd: durableEnd)
            index += JournalFrame.markerSize
            position += UInt64(JournalFrame.markerSize)
          case .needsMore(let size):
            stop = .reload
            needed = size
            return
          case .invalid:
            stop = .damage
            return
          }
        }
      }
      switch stop {
      case .end: return nil
      case .damage: return position
      case .reload:
        // A frame runs past the window: load it whole (the window then starts at it).
        index = try reader.load(at: position, count: needed)
        if reader.buffer.count - index < min(needed, Int(fileSize - position)) {
          return position
        }
      }
    }
    return nil
  }

  private enum Stop {
    case end, damage, reload
  }

  /// The frame bytes at `offset`.
  mutating func frame(at offset: UInt64, size: Int) throws(StoreError) -> [UInt8] {
    try reader.bytes(at: offset, count: size)
  }

  /// Decodes whatever is at `position`.
  mutating func decode(at position: UInt64) throws(StoreError) -> JournalFrame.Decoded {
    guard position < reader.fileSize else { return .invalid }
    let available = reader.fileSize - position
    var index = try reader.load(at: position, count: JournalFrame.headerSize)
    var result = decodeBuffered(index: index, position: position, available: available)
    if case .needsMore(let size) = result {
      index = try reader.load(at: position, count: size)
      result = decodeBuffered(index: index, position: position, available: available)
      if case .needsMore = result { return .invalid }
    }
    return result
  }

  private func decodeBuffered(index: Int, position: UInt64, available: UInt64)
    -> JournalFrame.Decoded
  {
    reader.buffer.withUnsafeBytes { all in
      JournalFrame.decode(
        UnsafeRawBufferPointer(rebasing: all[index...]), position: position,
        available: available, segmentFirst: segmentFirst, maxRecordSize: maxRecordSize)
    }
  }

  /// The largest `durableEnd` claimed by a valid sync marker located after `damage`, or 0.
  ///
  /// Markers are only ever written after the sync they describe returned, so one that claims
  /// more than `damage` proves the damaged bytes had been durable: corruption, not a torn tail.
  /// A valid *record* after the damage proves nothing (a later pending write can survive a
  /// crash without an earlier one) and is not consulted.
  mutating func durableClaim(after damage: UInt64) throws(StoreError) -> UInt64 {
    var claim: UInt64 = 0
    let markerHeader = JournalFrame.markerFlag | JournalFrame.markerBodyLength
    var position = damage + 1
    while position + UInt64(JournalFrame.markerSize) <= reader.fileSize {
      steps += 1
      guard let candidate = try lengthField(at: position) else { break }
      if candidate == 0 {
        position = try nextPossibleFrame(afterZeroLengthAt: position)
        continue
      }
      if candidate == markerHeader,
        case .marker(_, let durableEnd) = try decode(at: position)
      {
        claim = max(claim, durableEnd)
      }
      position += 1
    }
    return claim
  }

  /// The first offset after `damage` holding a valid record (with a sequence above
  /// ``previousSequence``) or a valid marker, or `nil` if none does.
  mutating func resynchronize(after damage: UInt64) throws(StoreError) -> UInt64? {
    var position = damage + 1
    while position + 8 <= reader.fileSize {
      steps += 1
      if try lengthField(at: position) == 0 {
        position = try nextPossibleFrame(afterZeroLengthAt: position)
        continue
      }
      switch try decode(at: position) {
      case .record(let sequence, _) where sequence > previousSequence: return position
      case .marker: return position
      default: position += 1
      }
    }
    return nil
  }

  // MARK: Runs of zeros

  /// The `length:u32` field of a frame starting at `position`, or `nil` if the file has fewer
  /// than four bytes there.
  private mutating func lengthField(at position: UInt64) throws(StoreError) -> UInt32? {
    let index = try reader.load(at: position, count: JournalFrame.headerSize)
    return reader.buffer.withUnsafeBytes { all in
      all.count - index >= 4 ? all.loadLittleEndian(UInt32.self, at: index) : nil
    }
  }

  /// The next offset after `position` where a frame may start, given that the length field at
  /// `position` is zero: no frame starts where its length field is zero (a record's length is
  /// at least 8, a marker's has its top bit set), so every offset whose four length bytes lie
  /// in the run of zeros that begins at `position` is skipped, and the walk goes on three bytes
  /// before the first byte that is not zero (the first offset whose length field reaches it),
  /// or at the end of the file. A preallocated tail is passed over at memory speed.
  private mutating func nextPossibleFrame(afterZeroLengthAt position: UInt64) throws(StoreError)
    -> UInt64
  {
    let nonZero = try firstNonZero(from: position + 4)
    assert(nonZero >= position + 4, "a zero length field is followed by a non-zero byte")
    return nonZero - 3
  }

  /// The offset of the first byte at or after `position` that is not zero, or the end of the
  /// file (also where a read comes back short): read a window at a time, each compared with
  /// zeros by ``firstNonZero(in:)``, the file system's holes skipped unread
  /// (`FileSystem.nextData(_:from:)`), so the time follows the data, not the apparent size.
  mutating func firstNonZero(from position: UInt64) throws(StoreError) -> UInt64 {
    var position = position
    while position < reader.fileSize {
      // A hole is zeros the file system can skip without reading (a sparse file).
      guard let data = try reader.fileSystem.nextData(reader.handle, from: position),
        data < reader.fileSize
      else { return reader.fileSize }
      position = max(position, data)
      let index = try reader.load(at: position, count: reader.window)
      let found: Int?? = reader.buffer.withUnsafeBytes { all in
        guard index < all.count else { return .none }
        return .some(Self.firstNonZero(in: UnsafeRawBufferPointer(rebasing: all[index...])))
      }
      guard let found else { return reader.fileSize }
      if let found { return position + UInt64(found) }
      position += UInt64(reader.buffer.count - index)
    }
    return reader.fileSize
  }

  /// The index of the first byte of `bytes` that is not zero, or `nil` if all are zero.
  ///
  /// Whole blocks are compared with a block of zeros by `memcmp` (vectorised by the C library,
  /// fast in a debug build too); only the block that differs, and the last partial one, are
  /// looked at byte by byte.
  static func firstNonZero(in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var index = 0
    zeroBlock.withUnsafeBytes { zeros in
      guard let zerosBase = zeros.baseAddress else { return }
      while bytes.count - index >= zeros.count,
        memcmp(base + index, zerosBase, zeros.count) == 0
      {
        index += zeros.count
      }
    }
    while index < bytes.count {
      if bytes[index] != 0 { return index }
      index += 1
    }
    return nil
  }

  /// The index of the last byte of `bytes` that is not zero, or `nil` if all are zero; the
  /// mirror of ``firstNonZero(in:)``.
  static func lastNonZero(in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    var end = bytes.count
    zeroBlock.withUnsafeBytes { zeros in
      guard let zerosBase = zeros.baseAddress else { return }
      while end >= zeros.count, memcmp(base + (end - zeros.count), zerosBase, zeros.count) == 0 {
        end -= zeros.count
      }
    }
    while end > 0 {
      end -= 1
      if bytes[end] != 0 { return end }
    }
    return nil
  }
}

/// What ``JournalSegmentScanner/firstNonZero(in:)`` and ``JournalSegmentScanner/lastNonZero(in:)``
/// compare whole blocks with.
private let zeroBlock = [UInt8](repeating: 0, count: 4096)

extension JournalSegmentScanner {
  /// A scanner over the open `.log` segment `handle` of `fileSize` bytes, read through windows
  /// of ``JournalOptions/readWindow`` and accepting records up to
  /// ``JournalOptions/maxRecordSize``.
  init(
    fileSystem: any FileSystem, handle: StoreFileHandle, fileSize: UInt64, options: JournalOptions,
    segmentFirst: UInt64, previousSequence: UInt64
  ) {
    self.init(
      reader: JournalWindowReader(
        fileSystem: fileSystem, handle: handle, fileSize: fileSize, window: options.readWindow),
      segmentFirst: segmentFirst, previousSequence: previousSequence,
      maxRecordSize: options.maxRecordSize)
  }
}
