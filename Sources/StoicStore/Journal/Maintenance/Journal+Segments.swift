extension Journal {
  /// The journal's segments, oldest first, each with its first sequence, its state and the
  /// bytes it holds: for a caller that keeps the journal within a size (a quota) by dropping
  /// whole old segments with ``dropThrough(_:)``.
  ///
  /// The list is taken under the journal's lock; the sizes of sealed segments are then asked
  /// of the file system outside it, so appends go on meanwhile. A sealed `.log` that background
  /// maintenance replaced by its `.zst` since is reported as ``JournalSegmentInfo/State/compressed``
  /// with the `.zst`'s size.
  ///
  /// - Returns: The segments in order; the last is the active one.
  /// - Throws: ``StoreError/Code/closed`` after ``close()``; ``StoreError/Code/poisoned``; the
  ///   file system's errors.
  public func segments() throws(StoreError) -> [JournalSegmentInfo] {
    let view = try state.withLock { (core) throws(StoreError) in
      try core.checkUsable(directory)
      return (
        core.sealed,
        core.sealing.map { ($0.segment.first, $0.segment.end) },
        core.active.map { ($0.first, $0.end) }
      )
    }
    let (sealed, sealing, active) = view
    var segments: [JournalSegmentInfo] = []
    segments.reserveCapacity(sealed.count + 2)
    for segment in sealed {
      var state: JournalSegmentInfo.State = segment.kind == .log ? .sealed : .compressed
      // A compressed segment's size is known; a sealed `.log`'s is asked for.
      var size = segment.bytes
      if size == nil { size = try fileSystem.fileSize(StorePath.join(directory, segment.name)) }
      if size == nil, segment.kind == .log {
        // Compressed since the list was taken: the `.log` is gone, the `.zst` is in place.
        state = .compressed
        size = self.state.withLock { core in
          core.sealed.first { $0.first == segment.first && $0.kind == .compressed }?.bytes
        }
      }
      segments.append(JournalSegmentInfo(first: segment.first, state: state, bytes: size ?? 0))
    }
    if let (first, end) = sealing {
      segments.append(JournalSegmentInfo(first: first, state: .sealing, bytes: end))
    }
    if let (first, end) = active {
      segments.append(JournalSegmentInfo(first: first, state: .active, bytes: end))
    }
    return segments
  }

  /// The bytes a record with a payload of `payloadCount` bytes takes in a `.log` segment: the
  /// payload and its 16-byte frame header.
  public static func recordFrameSize(payloadCount: Int) -> Int {
    JournalFrame.recordSize(payloadCount: payloadCount)
  }

  /// The bytes of one sync marker, which the journal appends after each sync that made new
  /// records durable (see ``Journal``).
  public static let syncMarkerSize = JournalFrame.markerSize
}
