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
      let index = try reader.load(at: position, count: JournalFrame.markerSize)
      let candidate = reader.buffer.withUnsafeBytes { $0.loadLittleEndian(UInt32.self, at: index) }
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
      switch try decode(at: position) {
      case .record(let sequence, _) where sequence > previousSequence: return position
      case .marker: return position
      default: position += 1
      }
    }
    return nil
  }
}
