extension Journal {
  /// Drops every record at or below `sequence`: makes a checkpoint with that low-water mark
  /// durable, then removes the sealed segments it wholly covers (sealing the active segment
  /// first when it is covered too). Readers start after the mark from then on.
  ///
  /// The snapshot, if any, is kept as it is. Cost is proportional to the segments removed.
  /// Unless the mark covers the last record (the active segment must then be replaced and
  /// sealed under the journal's lock), the checkpoint is written and the segments removed
  /// without holding the lock appends take: they go on meanwhile. A segment whose seal is
  /// still pending is removed by a later drop, or at open.
  ///
  /// - Throws: ``StoreError/Code/invalidArgument`` for a sequence above ``lastSequence``; the
  ///   file system's errors (nothing acknowledged is lost by a failure here).
  public func dropThrough(_ sequence: UInt64) throws(StoreError) {
    try withMaintenancePaused { () throws(StoreError) in try dropThroughPaused(sequence) }
  }

  /// How a drop is made.
  private enum DropPlan {
    /// The mark is not above the current one.
    case nothing
    /// The mark covers the last record: under the lock (see ``commitCheckpoint(_:core:records:)``).
    case locked
    /// Checkpoint and removal of these sealed segments outside the lock.
    case unlocked([JournalCore.Sealed])
  }

  private func dropThroughPaused(_ sequence: UInt64) throws(StoreError) {
    let plan = try state.withLock { (core) throws(StoreError) -> DropPlan in
      try core.checkUsable(directory)
      guard sequence <= core.lastSequence else {
        throw StoreError(
          .invalidArgument,
          "cannot drop through \(sequence): the last sequence is \(core.lastSequence)",
          path: directory)
      }
      guard sequence > core.lowWater else { return .nothing }
      guard sequence < core.lastSequence else { return .locked }
      return .unlocked(coveredSealed(core: core, lowWater: sequence))
    }
    switch plan {
    case .nothing: return
    case .locked: try dropThroughLocked(sequence)
    case .unlocked(let removable): try dropThroughUnlocked(sequence, removing: removable)
    }
  }

  /// The checkpoint with the mark `sequence`, durable, then the covered sealed segments removed,
  /// neither holding the state lock (the maintenance lock, held by the caller, keeps every other
  /// writer of the checkpoint and of sealed segments out). The mark and the segment list change
  /// under the lock between the two, so no reader is handed a segment about to go.
  private func dropThroughUnlocked(_ sequence: UInt64, removing segments: [JournalCore.Sealed])
    throws(StoreError)
  {
    let mutated = options.mutations.contains(.truncateBeforeSnapshot)
    if mutated { try removeSegmentsUnlocked(segments, mark: nil) }
    var checkpoint = try readCheckpoint() ?? .lowWater(0)
    checkpoint.lowWater = sequence
    let plain = AtomicFile.Options(envelope: false, keepPrevious: false)
    try AtomicFile(
      path: StorePath.join(directory, JournalFileNames.checkpoint), fileSystem: fileSystem,
      options: plain
    ).write(checkpoint.encoded())
    try removeSegmentsUnlocked(mutated ? [] : segments, mark: sequence)
  }

  /// Raises the mark to `mark` (once its checkpoint is durable) and takes `segments` out of
  /// the list under the lock, then removes their files and syncs the directory outside it.
  private func removeSegmentsUnlocked(_ segments: [JournalCore.Sealed], mark: UInt64?)
    throws(StoreError)
  {
    state.withLock { core in
      if let mark { core.lowWater = max(core.lowWater, mark) }
      core.sealed.removeAll { segments.contains($0) }
    }
    guard !segments.isEmpty else { return }
    for segment in segments { try fileSystem.remove(StorePath.join(directory, segment.name)) }
    try fileSystem.syncDirectory(directory)
  }

  /// The drop through the last record, under the lock (the sequence was checked by
  /// ``dropThroughPaused(_:)``: the last sequence only grows, and the mark changes only under
  /// the maintenance lock the caller holds).
  private func dropThroughLocked(_ sequence: UInt64) throws(StoreError) {
    try withExclusiveCore { (core) throws(StoreError) in
      try core.checkUsable(directory)
      var checkpoint = try readCheckpoint() ?? .lowWater(0)
      checkpoint.lowWater = sequence
      try commitCheckpoint(checkpoint, core: &core, records: nil)
    }
  }

  /// Stores `bytes` as the caller's state through `sequence` (zstd-compressed) and drops every
  /// record at or below it, as ``dropThrough(_:)`` does. Open and readers then give the snapshot
  /// (``snapshot()``) and the records after it.
  ///
  /// - Throws: ``StoreError/Code/invalidArgument`` for a sequence above ``lastSequence`` or
  ///   below the current ``lowWaterMark``; the file system's errors (a failure leaves the
  ///   previous checkpoint in force).
  public func writeSnapshot(covering sequence: UInt64, bytes: [UInt8]) throws(StoreError) {
    let checkpoint = try JournalCheckpoint.snapshot(
      sequence: sequence, bytes: bytes, level: options.compressionLevel)
    try withMaintenancePaused { () throws(StoreError) in
      try commitSnapshot(checkpoint, covering: sequence, bytes: bytes)
    }
  }

  private func commitSnapshot(
    _ checkpoint: JournalCheckpoint, covering sequence: UInt64, bytes: [UInt8]
  )
    throws(StoreError)
  {
    try withExclusiveCore { (core) throws(StoreError) in
      try core.checkUsable(directory)
      guard sequence <= core.lastSequence, sequence >= core.lowWater else {
        throw StoreError(
          .invalidArgument,
          "a snapshot must cover \(core.lowWater)...\(core.lastSequence), not \(sequence)",
          path: directory)
      }
      try commitCheckpoint(checkpoint, core: &core, records: bytes.count)
    }
  }

  /// The latest snapshot, or `nil` if none was written.
  /// - Throws: ``StoreError/Code/corrupt`` if the checkpoint fails its checks.
  public func snapshot() throws(StoreError) -> JournalSnapshot? {
    guard let checkpoint = try readCheckpoint(), checkpoint.hasSnapshot else { return nil }
    let path = StorePath.join(directory, JournalFileNames.checkpoint)
    return JournalSnapshot(
      sequence: checkpoint.snapshotSequence, bytes: try checkpoint.snapshotBytes(path: path))
  }

  func readCheckpoint() throws(StoreError) -> JournalCheckpoint? {
    let path = StorePath.join(directory, JournalFileNames.checkpoint)
    guard let bytes = try fileSystem.readWholeFile(path) else { return nil }
    return try JournalCheckpoint.decode(bytes, path: path)
  }

  /// Checkpoint first, removal second (the order is what makes every crash point safe).
  private func commitCheckpoint(
    _ checkpoint: JournalCheckpoint, core: inout JournalCore, records: Int?
  ) throws(StoreError) {
    // A replaced segment still being sealed is sealed now, so that it can be covered.
    try sealPendingLocked(core: &core)
    if let active = core.active, checkpoint.lowWater >= core.lastSequence,
      core.lastSequence >= active.first, active.end > 0,
      core.lastSequence < JournalFrame.maximumSequence
    {
      // The active segment is wholly covered: replace and seal it so it can be removed (unless
      // every sequence is used: no segment could follow it).
      try roll(core: &core)
      try sealPendingLocked(core: &core)
    }
    let removable = coveredSealed(core: core, lowWater: checkpoint.lowWater)
    if options.mutations.contains(.truncateBeforeSnapshot) {
      try removeSegments(removable, core: &core)
    }
    let path = StorePath.join(directory, JournalFileNames.checkpoint)
    let dropped = checkpoint.lowWater - min(core.lowWater, checkpoint.lowWater)
    try checkpoint.store(in: directory, fileSystem: fileSystem)
    core.lowWater = checkpoint.lowWater
    if !options.mutations.contains(.truncateBeforeSnapshot) {
      try removeSegments(removable, core: &core)
    }
    if let records {
      events.emit(
        StoreEvents.journalCompacted,
        [
          ("path", path), ("records", String(dropped)),
          ("inputBytes", String(records)), ("outputBytes", String(checkpoint.stored.count)),
        ])
    }
  }

  /// Sealed segments whose every record is at or below `lowWater`.
  func coveredSealed(core: JournalCore, lowWater: UInt64) -> [JournalCore.Sealed] {
    var covered: [JournalCore.Sealed] = []
    for (index, segment) in core.sealed.enumerated() {
      let nextFirst =
        index + 1 < core.sealed.count ? core.sealed[index + 1].first : (core.active?.first ?? 0)
      guard nextFirst > 0, nextFirst - 1 <= lowWater else { break }
      covered.append(segment)
    }
    return covered
  }

  private func removeSegments(_ segments: [JournalCore.Sealed], core: inout JournalCore)
    throws(StoreError)
  {
    guard !segments.isEmpty else { return }
    for segment in segments {
      try fileSystem.remove(StorePath.join(directory, segment.name))
      core.sealed.removeAll { $0 == segment }
    }
    try fileSystem.syncDirectory(directory)
  }

  /// Rewrites the sealed `.log` segment at `index` as a `.zst` of compressed blocks, under the
  /// lock (inline maintenance): see ``compressSegmentFile(_:previous:)`` and
  /// ``publishCompressed(_:file:)``.
  func compressSealed(index: Int, core: inout JournalCore) throws(StoreError) {
    let segment = core.sealed[index]
    guard segment.kind == .log else { return }
    let previous = index > 0 ? (core.sealed[index - 1].first - 1) : 0
    let file = try compressSegmentFile(segment, previous: previous)
    core.sealed[index] = JournalCore.Sealed(
      first: segment.first, kind: .compressed, name: file.name, bytes: file.outputBytes)
    try publishCompressed(segment, file: file)
  }

  /// What ``compressSegmentFile(_:previous:)`` wrote.
  struct CompressedFile {
    var name: String
    var records: UInt64
    var inputBytes: UInt64
    var outputBytes: UInt64
  }

  /// Writes the sealed `.log` `segment` as a `.zst` whose name records its summary (see
  /// ``JournalFileNames``): temporary, sync, rename, directory sync.
  /// Touches no journal state (the segment is sealed, so its file no longer changes); the
  /// `.log` stays in place until ``publishCompressed(_:file:)``.
  func compressSegmentFile(_ segment: JournalCore.Sealed, previous: UInt64)
    throws(StoreError) -> CompressedFile
  {
    let logPath = StorePath.join(directory, segment.name)
    // Written under the name without a summary, renamed to the one recording it (known once
    // the trailer is written).
    let temporary =
      StorePath.join(directory, JournalFileNames.segment(first: segment.first, kind: .compressed))
      + JournalFileNames.temporarySuffix
    let source = try fileSystem.open(logPath, .readOnly)
    defer { try? fileSystem.close(source) }
    var output = try JournalTemporaryFile(
      path: temporary, directory: directory, fileSystem: fileSystem)
    defer { output.abandon() }
    var scanner = JournalSegmentScanner(
      fileSystem: fileSystem, handle: source, fileSize: try fileSystem.size(source),
      options: options, segmentFirst: segment.first,
      previousSequence: min(previous, segment.first - 1))
    try output.append(JournalCompressedSegment.header(segmentFirst: segment.first))
    var block = JournalRecordBlock.Encoder()
    var records = UInt64(0)
    var lastSequence = UInt64(0)
    var inputBytes = UInt64(0)
    let compressor = Zstd.Compressor()
    func flush() throws(StoreError) {
      guard !block.isEmpty else { return }
      try output.append(
        JournalCompressedSegment.dataBlock(
          block, level: options.compressionLevel, compressor: compressor))
      block.reset()
    }
    let damage = try scanner.forEachRecord { (sequence, payload) throws(StoreError) in
      if !block.accepts(
        sequence: sequence, payloadCount: payload.count,
        target: JournalCompressedSegment.blockTarget)
      {
        try flush()
      }
      block.append(sequence: sequence, payload: payload)
      records += 1
      lastSequence = sequence
      inputBytes += UInt64(JournalFrame.recordSize(payloadCount: payload.count))
    }
    if let damage {
      throw StoreError(
        .corrupt, "sealed journal segment is damaged at offset \(damage)", path: logPath,
        cause: JournalDamage(path: logPath, offset: damage, length: 0))
    }
    try flush()
    try output.append(
      JournalCompressedSegment.trailer(records: records, lastSequence: lastSequence))
    let written = output.end
    let zstName = JournalFileNames.compressedSegment(
      first: segment.first,
      summary: JournalFileNames.CompressedSummary(
        end: records == 0 ? segment.first - 1 : lastSequence, records: records, bytes: written))
    try output.commit(as: StorePath.join(directory, zstName))
    return CompressedFile(
      name: zstName, records: records, inputBytes: inputBytes, outputBytes: written)
  }

  /// After the `.zst` of `segment` is durable and the journal points at it: removes the
  /// `.log` (and syncs the directory) and reports the compaction.
  func publishCompressed(_ segment: JournalCore.Sealed, file: CompressedFile) throws(StoreError) {
    try fileSystem.remove(StorePath.join(directory, segment.name))
    try fileSystem.syncDirectory(directory)
    events.emit(
      StoreEvents.journalCompacted,
      [
        ("path", StorePath.join(directory, file.name)), ("records", String(file.records)),
        ("inputBytes", String(file.inputBytes)), ("outputBytes", String(file.outputBytes)),
      ])
  }
}
