public import StoicStore

extension RecordSpool {
  /// Applies the byte limit (with ``LogSpoolFullPolicy/dropOldest``) and the age limit now, on
  /// the calling thread: measures the journal and removes the oldest whole segments that must
  /// go, counting their records. Background maintenance does the same by itself; this is for a
  /// caller that wants it done before it goes on (a test, a tool). Blocks for the removal (a
  /// checkpoint written and synced, files removed).
  ///
  /// - Throws: `StoreError.Code.closed` after ``close()``; the journal's errors (nothing was
  ///   removed or counted, then).
  public func enforceRetention() throws(StoreError) {
    guard currentJournal() != nil else {
      throw StoreError(.closed, "the \(Format.recordKind) spool is closed", path: directory)
    }
    maintenanceLock.wait()
    defer { maintenanceLock.signal() }
    try Self.maintaining.whileSet { () throws(StoreError) in
      try enforceRetentionLocked(checkAge: true)
    }
  }

  /// Compresses every sealed segment now, on the calling thread, and returns when none is
  /// left: what background maintenance does over time, done before the caller goes on (a
  /// benchmark that drains a backlog as old as a week's would be, a tool about to copy the
  /// spool). Blocks for the compression.
  ///
  /// - Throws: `StoreError.Code.closed` after ``close()``; the journal's errors (a segment it
  ///   could not compress stays as it is).
  public func compressSealedSegments() throws(StoreError) {
    guard let journal = currentJournal() else {
      throw StoreError(.closed, "the \(Format.recordKind) spool is closed", path: directory)
    }
    // The spool writes its own events into the journal (background maintenance's among them),
    // so a roll may leave a new segment to seal meanwhile: go again while one is left behind
    // the active segment. Each round raises fewer events than the one before; a few suffice.
    for _ in 0..<Self.compressionRounds {
      try journal.compressSealedSegments()
      let left = try journal.segments().contains { $0.state == .sealing || $0.state == .sealed }
      if !left { break }
    }
    try measure(journal)
  }

  /// The most rounds ``compressSealedSegments()`` takes to catch up with segments its own
  /// events filled.
  static var compressionRounds: Int { 8 }

  /// Drops every record at or below `sequence`: the forwarder calls it once a batch through
  /// `sequence` was acknowledged. Not counted as a drop. Whole segments it covers are removed
  /// (see `Journal.dropThrough(_:)`); the quota and the age limit go on applying to
  /// the records after it.
  ///
  /// - Throws: `StoreError.Code.invalidArgument` for a sequence above ``lastSequence``;
  ///   `StoreError.Code.closed` after ``close()``; the journal's errors.
  public func dropThrough(_ sequence: UInt64) throws(StoreError) {
    maintenanceLock.wait()
    defer { maintenanceLock.signal() }
    guard let journal = currentJournal() else {
      throw StoreError(.closed, "the \(Format.recordKind) spool is closed", path: directory)
    }
    try journal.dropThrough(sequence)
    try measure(journal)
  }

  /// Measures the journal: the estimate becomes its size now, plus what is appended from here
  /// on (an append racing the measure may be counted twice, never missed).
  func measure(_ journal: Journal) throws(StoreError) {
    _ = try measureSegments(journal)
  }

  /// The journal's segments and their total, which becomes the estimate's new baseline.
  private func measureSegments(_ journal: Journal) throws(StoreError)
    -> (segments: [JournalSegmentInfo], total: UInt64)
  {
    let before = appendedBytes.load(ordering: .relaxed)
    let segments = try journal.segments()
    let total = segments.reduce(UInt64(0)) { $0 + $1.bytes }
    usageBaseline.store(
      Int64(clamping: total) &- Int64(truncatingIfNeeded: before), ordering: .relaxed)
    return (segments, total)
  }

  /// Settles a removal of records that a crash interrupted: counted if the journal's low-water
  /// mark shows it happened, forgotten otherwise.
  func settleInterruptedDrop(_ journal: Journal) throws(StoreError) {
    guard let pending = dropCounters.pendingDrop else { return }
    if journal.lowWaterMark >= pending.through {
      dropCounters.completeDrop()
    } else {
      try dropCounters.abandonDrop()
    }
  }

  /// Whether the age limit is due for a look (every quarter of the age, at most a minute
  /// apart); schedules the next look.
  func ageCheckDue() -> Bool {
    guard let maximumAge = options.maximumAge else { return false }
    let now = ContinuousClock.now
    let period = max(min(maximumAge / 4, .seconds(60)), .milliseconds(1))
    let due = state.withLock { state -> Bool in
      guard state.nextAgeCheck <= now else { return false }
      state.nextAgeCheck = now + period
      return true
    }
    if due { scheduleTimer(after: period) }
    return due
  }

  /// Measures the journal (past the high-water mark, unless dropping the oldest, compressing
  /// full segments first), then removes whole segments from the oldest on: those whose every
  /// record is older than the age limit (when `checkAge`), then, with
  /// ``LogSpoolFullPolicy/dropOldest``, as many as bring the journal down to the high-water
  /// mark. The active segment and one whose seal is pending are never removed. Call holding
  /// ``maintenanceLock``.
  func enforceRetentionLocked(checkAge: Bool) throws(StoreError) {
    guard writable.load(ordering: .relaxed), let journal = currentJournal() else { return }
    var (segments, total) = try measureSegments(journal)
    if options.whenFull != .dropOldest, total > options.highWater,
      segments.contains(where: { $0.state == .sealed })
    {
      // Full segments not compressed yet (compression lags a burst) take about five times
      // their compressed size: compressing them is the room a full spool can make by itself.
      // (Dropping the oldest makes room at once instead: the newest records are kept.)
      try journal.compressSealedSegments()
      (segments, total) = try measureSegments(journal)
    }
    forgetSegmentTimes(keeping: segments)
    let lowWater = journal.lowWaterMark
    var index = 0
    /// Takes the oldest sealed segments while `more` says so (each with a newer segment after
    /// it), adding up the records they still hold (after the low-water mark); returns the count
    /// and the last sequence to drop through, if any was taken.
    func take(while more: (Int) throws(StoreError) -> Bool) throws(StoreError)
      -> (count: UInt64, through: UInt64)?
    {
      var taken: (count: UInt64, through: UInt64)?
      while index + 1 < segments.count, segments[index].isSealed, try more(index) {
        let last = segments[index + 1].first - 1
        let after = max(lowWater, segments[index].first - 1)
        taken = ((taken?.count ?? 0) + (last > after ? last - after : 0), last)
        total -= segments[index].bytes
        index += 1
      }
      assert(
        SpoolRules.keptBytesMatch(total, segments: segments[index...]),
        "@Q3: retention counts \(total) bytes kept, not those of the segments it keeps")
      assert(
        SpoolRules.removesOnlySealedOlder(segments, taken: index),
        "@Q4: retention takes \(index) segments of \(segments.count), not all sealed and older")
      return taken
    }
    if checkAge, let maximumAge = options.maximumAge {
      let cutoff = WallClock.nanoseconds() &- maximumAge.nanosecondsClamped
      // A segment is old once the first record after it is: every record in it came before.
      let old = try take { (index) throws(StoreError) in
        try firstRecordTime(of: segments[index + 1], journal).map { $0 < cutoff } ?? false
      }
      if let old { try drop(old.count, reason: .age, through: old.through, journal) }
    }
    if options.whenFull == .dropOldest,
      let oldest = try take(while: { _ in total > options.highWater })
    {
      try drop(oldest.count, reason: .quota, through: oldest.through, journal)
    }
    if index > 0 { try measure(journal) }
  }

  /// Removes the records through `through` (whole sealed segments) and counts `count` of them
  /// for `reason`: the drop is recorded as under way, durably, before the journal removes them,
  /// and counted once it did, so a crash in between is settled at open
  /// (``settleInterruptedDrop(_:)``), never counted twice or missed.
  func drop(_ count: UInt64, reason: SpoolDropReason, through: UInt64, _ journal: Journal)
    throws(StoreError)
  {
    guard count > 0 else { return try journal.dropThrough(through) }
    if options.mutations.contains(.dropWithoutIntent) {
      dropCounters.add(count, reason: reason)
      return try journal.dropThrough(through)
    }
    try dropCounters.beginDrop(count, reason: reason, through: through)
    assert(
      SpoolRules.removalRecorded(
        dropCounters.pendingDrop, count: count, reason: reason, through: through),
      "@Q2: removing records through \(through) that are not recorded as under way")
    do throws(StoreError) {
      try journal.dropThrough(through)
    } catch {
      if journal.lowWaterMark >= through {
        dropCounters.completeDrop()
      } else {
        try? dropCounters.abandonDrop()
      }
      throw error
    }
    dropCounters.completeDrop()
  }

  /// The time of the first record of `segment`, read once and remembered; `nil` when the
  /// segment holds no record yet.
  func firstRecordTime(of segment: JournalSegmentInfo, _ journal: Journal) throws(StoreError)
    -> Int64?
  {
    if let time = state.withLock({ $0.segmentTimes[segment.first] }) { return time }
    var found: Int64?
    try readStoppable(journal, from: segment.first) { (_, payload) throws(StoreError) in
      found = Format.timeNanoseconds(of: payload) ?? .min
      throw Self.stopReading
    }
    if let found { state.withLock { $0.segmentTimes[segment.first] = found } }
    return found
  }

  /// Forgets the times of segments that are gone.
  private func forgetSegmentTimes(keeping segments: [JournalSegmentInfo]) {
    let firsts = Set(segments.map(\.first))
    state.withLock { state in
      state.segmentTimes = state.segmentTimes.filter { firsts.contains($0.key) }
    }
  }
}

extension Duration {
  /// The duration in nanoseconds, clamped to `Int64`.
  var nanosecondsClamped: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    return whole.addingReportingOverflow(attoseconds / 1_000_000_000).overflow
      ? .max : whole + attoseconds / 1_000_000_000
  }
}
