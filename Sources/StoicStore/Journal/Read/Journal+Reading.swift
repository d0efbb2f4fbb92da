extension Journal {
  /// Calls `body` with every record after the low-water mark whose sequence is at least
  /// `sequence`, in order, in bounded memory that does not grow with the journal's size: a
  /// `.log` segment is read through one ``JournalOptions/readWindow`` (or one frame), a
  /// compressed one two blocks at a time (each about 1 MiB of payload, or one record if larger,
  /// held as stored, decompressed and rebuilt bytes), the second decoded on a worker thread
  /// while the first is; a block's records are handed out only once the whole block checked.
  /// A block read again soon after (a read of the next range of the same block) is not
  /// decoded again when its stored bytes are the same (`JournalCompressedBlock`).
  ///
  /// Sees the records appended before the call; appends made meanwhile (even from `body`) are
  /// not visited. Dropping or snapshotting concurrently may make the read fail with
  /// ``StoreError/Code/notFound``.
  ///
  /// A compressed segment's header, trailer and size are checked against its name before any
  /// of its records is handed out; with ``JournalOptions/salvage`` one that fails is set aside
  /// (`<name>.corrupt-0`, reported with ``StoreEvents/journalCorruptionDetected`` and
  /// ``StoreEvents/journalSalvaged``) and the read goes on after it.
  ///
  /// - Throws: ``StoreError/Code/corrupt`` if a segment fails its checks; what `body` throws;
  ///   the file system's errors.
  public func forEachRecord(
    from sequence: UInt64 = 0,
    _ body: (JournalRecord) throws(StoreError) -> Void
  ) throws(StoreError) {
    try forEachRecordBorrowing(from: sequence) { (recordSequence, payload) throws(StoreError) in
      try body(JournalRecord(sequence: recordSequence, payload: Array(payload)))
    }
  }

  /// Like ``forEachRecord(from:_:)-1ay5y``, without a copy per record: `body` gets each record's
  /// sequence and its payload borrowed from the reader's buffer, valid only until `body`
  /// returns (copy what must outlive it). Every record is checked (CRC, order) exactly as
  /// ``forEachRecord(from:_:)-1ay5y`` checks it, in the same bounded memory.
  ///
  /// - Throws: As ``forEachRecord(from:_:)-1ay5y``.
  public func forEachRecordBorrowing(
    from sequence: UInt64 = 0,
    _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) {
    let view = try state.withLock { (core) throws(StoreError) in
      try core.checkUsable(directory)
      return (core.sealed, core.sealing?.segment, core.active, core.lowWater, core.lastSequence)
    }
    let (sealed, sealing, active, lowWater, last) = view
    let start = max(sequence, lowWater + 1)
    var segments:
      [(first: UInt64, kind: JournalFileNames.SegmentKind, name: String, end: UInt64?)] =
        sealed.map { ($0.first, $0.kind, $0.name, nil) }
    // A replaced segment whose seal is pending is read up to its last frame, like the active
    // one (after that it may hold the zeros its mapping preallocated).
    for segment in [sealing, active].compactMap({ $0 }) {
      segments.append((segment.first, .log, segment.name, segment.end))
    }
    var peak = 0
    // Shared by the compressed segments' readers, and kept for the next read: their buffers
    // are allocated once, not once per read. Every decode has returned when a read ends.
    let blocks = options.blockPool.borrowPair()
    defer { options.blockPool.giveBack(blocks) }
    for (index, segment) in segments.enumerated() {
      if index + 1 < segments.count, segments[index + 1].first <= start { continue }
      var path = StorePath.join(directory, segment.name)
      var kind = segment.kind
      var end = segment.end
      let handle: StoreFileHandle
      do throws(StoreError) {
        handle = try fileSystem.open(path, .readOnly)
      } catch {
        // Background maintenance may have sealed and replaced a `.log` by its `.zst` since
        // the view was taken: the active segment's too, when appends made meanwhile (the
        // spool's own events) rolled it; the records appended after the view are not handed
        // out (`last`).
        guard error.code == .notFound, kind == .log,
          let replacement = state.withLock({ core in
            core.sealed.first { $0.first == segment.first && $0.kind == .compressed }?.name
          })
        else { throw error }
        kind = .compressed
        end = nil
        path = StorePath.join(directory, replacement)
        handle = try fileSystem.open(path, .readOnly)
      }
      defer { try? fileSystem.close(handle) }
      let size: UInt64
      if let end { size = end } else { size = try fileSystem.size(handle) }
      let reader = JournalWindowReader(
        fileSystem: fileSystem, handle: handle, fileSize: size, window: options.readWindow)
      switch kind {
      case .compressed:
        let name = StorePath.name(of: path)
        let summary = JournalFileNames.parseSegment(name)?.summary
        if let summary {
          // The open did not read it: its ends are checked against its name before any of its
          // records is handed out. A salvaging journal sets a segment that fails aside and
          // reads on, as an open that found it would have.
          do throws(StoreError) {
            _ = try JournalCompressedEnds.check(
              handle, path: path, segmentFirst: segment.first, summary: summary,
              fileSystem: fileSystem)
          } catch {
            guard options.salvage, error.code == .corrupt else { throw error }
            blockIndex.forget(name)
            try setAsideDamaged(
              JournalCore.Sealed(first: segment.first, kind: .compressed, name: name))
            continue
          }
        }
        // Known blocks let the read start at the one holding `start`; if that block is not what
        // the index says, the read starts over from the header, which checks everything.
        var resume = start > segment.first ? blockIndex.start(of: name, for: start) : nil
        while true {
          var records = JournalCompressedReader(
            reader: reader, path: path, segmentFirst: segment.first,
            previousSequence: segment.first - 1, maxRecordSize: options.maxRecordSize,
            parallel: true, blocks: blocks, resume: resume)
          var delivered = false
          do throws(StoreError) {
            while try records.nextBlockBorrowing({ (recordSequence, payload) throws(StoreError) in
              if recordSequence >= start, recordSequence <= last {
                delivered = true
                try body(recordSequence, payload)
              }
            }) {
              peak = max(peak, records.peakBytes)
            }
          } catch {
            blockIndex.learn(name, records.checkedBlocks)
            guard resume != nil, !delivered, error.code == .corrupt else { throw error }
            blockIndex.forget(name)
            resume = nil
            continue
          }
          blockIndex.learn(name, records.checkedBlocks)
          break
        }
      case .log:
        peak = max(
          peak,
          try readLogSegment(
            reader: reader, path: path, size: size, first: segment.first,
            last: index + 1 < segments.count ? segments[index + 1].first - 1 : last, from: start,
            body))
      }
    }
    state.withLock { $0.lastReadPeakBytes = peak }
  }

  /// Hands `body` the records of the `.log` segment `path` (first sequence `first`, `size`
  /// bytes read, its records at most `last` in this read's view) from sequence `start` on, each
  /// checked; returns the largest buffer held.
  ///
  /// A read from the middle starts at the last record start ``frameIndex`` knows at or before
  /// `start`, and checks that the first record there is the one the index names before handing
  /// out anything; if it is not, or the frames there are damaged before any record was handed
  /// out, or none was found there though the segment holds records from `start` on, the index of
  /// the segment is forgotten and the read starts over from its first frame.
  /// Where the read stops (the record after the last one `body` took, when `body` throws to
  /// stop, or the end of the segment) is learned for the next read.
  private func readLogSegment(
    reader: JournalWindowReader, path: String, size: UInt64, first: UInt64, last: UInt64,
    from start: UInt64, _ body: (UInt64, UnsafeRawBufferPointer) throws(StoreError) -> Void
  ) throws(StoreError) -> Int {
    let name = StorePath.name(of: path)
    var resume = start > first ? frameIndex.start(of: name, for: start) : nil
    while true {
      var scanner = JournalSegmentScanner(
        reader: reader, segmentFirst: first,
        previousSequence: resume?.previousSequence ?? first - 1,
        maxRecordSize: options.maxRecordSize)
      scanner.offset = resume?.position ?? 0
      var expected = resume?.sequence
      var handed: UInt64?
      var stoppedByBody = false
      var mismatch = false
      let damage: UInt64?
      do throws(StoreError) {
        damage = try scanner.forEachRecord { (recordSequence, payload) throws(StoreError) in
          if let sequence = expected {
            expected = nil
            guard recordSequence == sequence else {
              mismatch = true
              throw StoreError(.other, "the frame index names another record", path: path)
            }
          }
          guard recordSequence >= start else { return }
          handed = recordSequence
          do throws(StoreError) {
            try body(recordSequence, payload)
          } catch {
            stoppedByBody = true
            throw error
          }
        }
      } catch {
        if mismatch {
          frameIndex.forget(name)
          resume = nil
          continue
        }
        if stoppedByBody, let handed {
          // The scanner stays at the frame `body` refused (or stopped at): the next read of it
          // starts there.
          frameIndex.learn(
            name,
            JournalFrameIndex.Entry(
              position: scanner.offset, sequence: handed,
              previousSequence: scanner.previousSequence))
        }
        throw error
      }
      if resume != nil, handed == nil, damage != nil || start <= last {
        frameIndex.forget(name)
        resume = nil
        continue
      }
      if let damage {
        throw StoreError(
          .corrupt, "journal segment is damaged at offset \(damage)", path: path,
          cause: JournalDamage(path: path, offset: damage, length: size - damage))
      }
      if scanner.previousSequence >= first, scanner.previousSequence < .max {
        // The end of what this read saw: where the next record of an active segment will be.
        frameIndex.learn(
          name,
          JournalFrameIndex.Entry(
            position: scanner.offset, sequence: scanner.previousSequence + 1,
            previousSequence: scanner.previousSequence))
      }
      return scanner.reader.peakBytes
    }
  }

  /// Like ``forEachRecord(from:_:)``, for a `body` that throws errors of its own type (a JSON
  /// decoder's, an app's): the first error `body` throws stops the read and is rethrown as it
  /// was thrown.
  ///
  /// ```swift
  /// try journal.forEachRecord { record in
  ///   events.append(try JSONDecoder().decode(Event.self, from: Data(record.payload)))
  /// }
  /// ```
  ///
  /// - Throws: What `body` threw, unchanged; otherwise a ``StoreError`` as
  ///   ``forEachRecord(from:_:)`` throws it.
  public func forEachRecord<Failure: Error>(
    from sequence: UInt64 = 0,
    _ body: (JournalRecord) throws(Failure) -> Void
  ) throws {
    try forEachRecordBorrowing(from: sequence) { (recordSequence, payload) throws(Failure) in
      try body(JournalRecord(sequence: recordSequence, payload: Array(payload)))
    }
  }

  /// Like ``forEachRecordBorrowing(from:_:)``, for a `body` that throws errors of its own type:
  /// the first error `body` throws stops the read and is rethrown as it was thrown.
  ///
  /// - Throws: What `body` threw, unchanged; otherwise a ``StoreError`` as
  ///   ``forEachRecord(from:_:)-1ay5y`` throws it.
  public func forEachRecordBorrowing<Failure: Error>(
    from sequence: UInt64 = 0,
    _ body: (UInt64, UnsafeRawBufferPointer) throws(Failure) -> Void
  ) throws {
    var thrown: Failure?
    do throws(StoreError) {
      try forEachRecordBorrowing(from: sequence) { (recordSequence, payload) throws(StoreError) in
        do throws(Failure) {
          try body(recordSequence, payload)
        } catch {
          thrown = error
          throw StoreError(.other, "the reader's body stopped the read", path: directory)
        }
      }
    } catch {
      if let thrown { throw thrown }
      throw error
    }
  }

  /// Every record after the low-water mark from `sequence` on, collected in memory. For small
  /// journals and tests; use ``forEachRecord(from:_:)-1ay5y`` to stay in bounded memory.
  /// - Throws: As ``forEachRecord(from:_:)-1ay5y``.
  public func records(from sequence: UInt64 = 0) throws(StoreError) -> [JournalRecord] {
    var all: [JournalRecord] = []
    try forEachRecord(from: sequence) { (record) throws(StoreError) in all.append(record) }
    return all
  }

  /// The largest buffer the last ``forEachRecord(from:_:)`` held; for the bounded-memory test.
  package var lastReadPeakBytes: Int { state.withLock { $0.lastReadPeakBytes } }
}
