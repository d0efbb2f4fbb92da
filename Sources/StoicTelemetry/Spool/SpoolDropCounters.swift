import Dispatch
public import StoicStore

/// A spool's persistent drop counters: how many records were dropped for each
/// ``SpoolDropReason``, over the spool's whole life.
///
/// The counters live in one small file (`<root>/drops`, see `SpoolDropCountersFormat`), mapped
/// shared where the file system can map files. Every change is written at once into a *live*
/// copy, in turn into two slots, so it is in the kernel when ``add(_:reason:)`` returns and
/// survives a crash of the process (a write the crash cut leaves the other copy, one change
/// older). ``sync()`` (the spool's flush and close) writes a *durable* copy and syncs the
/// file, so a power loss keeps at least the counts of the last sync.
///
/// Records removed by the quota or the age limit are counted exactly across crashes: the drop
/// is recorded as under way (and synced) before the records are removed, and open settles it
/// by looking at what the journal kept (see ``LogSpool``).
///
/// A file that cannot be read (damaged, or written by a newer build) is renamed aside to
/// `drops.corrupt-N`, never deleted, and counting starts again from zero with the event
/// ``SpoolEvents/dropCountsReset``.
///
/// Thread-safe. ``add(_:reason:)`` takes a lock for a copy of about 170 bytes into the mapping
/// (or one positional write where nothing can be mapped); ``sync()`` syncs outside that lock.
public final class SpoolDropCounters: Sendable {
  /// The counters file.
  public let path: String
  let fileSystem: any FileSystem
  let state: SleepingLock<State>
  /// Serializes durable writes and their syncs, so that a durable slot is never written while
  /// the other one is not yet synced. Never taken by ``add(_:reason:)``.
  let syncLock = DispatchSemaphore(value: 1)

  struct State {
    var record: SpoolDropCountersFormat.Record
    var handle: StoreFileHandle?
    var mapping: (any FileMapping)?
    /// The durable slot (0 or 1) holding the newest synced copy.
    var newestDurableSlot: Int
    /// Changed since the last durable write.
    var dirty = false
    /// Writes that failed (the counts in memory are right; the file is behind).
    var writeFailures = 0
    var observers: [@Sendable () -> Void] = []
    /// Set by ``close()``: later changes are written by `writeLate(_:reason:)`.
    var isClosed = false
  }

  /// After ``close()``: the counts added since, not yet in the file, and whether a thread is
  /// writing them.
  struct Late {
    var pending = SpoolDropCounts()
    var writing = false
    /// Set once the spool's lock was held by another opener: the file is someone else's now,
    /// later counts stay in memory.
    var givenUp = false
  }
  let late = SleepingLock(Late())

  init(
    path: String, fileSystem: any FileSystem, record: SpoolDropCountersFormat.Record,
    handle: StoreFileHandle, mapping: (any FileMapping)?, newestDurableSlot: Int
  ) {
    self.path = path
    self.fileSystem = fileSystem
    self.state = SleepingLock(
      State(
        record: record, handle: handle, mapping: mapping, newestDurableSlot: newestDurableSlot))
  }

  deinit {
    let (handle, mapping) = state.withLock { state in
      defer {
        state.handle = nil
        state.mapping = nil
      }
      return (state.handle, state.mapping)
    }
    try? mapping?.close()
    if let handle { try? fileSystem.close(handle) }
  }

  /// Opens the counters file at `path`, creating it (durably) if it does not exist.
  ///
  /// - Parameters:
  ///   - path: The file, `<root>/drops` in a ``TelemetrySpool``.
  ///   - fileSystem: The door to the disk.
  ///   - events: Where ``SpoolEvents/dropCountsReset`` is reported.
  /// - Returns: The counters, as the file last held them.
  /// - Throws: The file system's errors (creating or opening the file).
  public static func open(path: String, fileSystem: any FileSystem, events: EventSink = .discard)
    throws(StoreError) -> SpoolDropCounters
  {
    try? fileSystem.remove(path + ".tmp")
    var record = SpoolDropCountersFormat.Record()
    var newestDurableSlot = 0
    var create = true
    if let bytes = try fileSystem.readWholeFile(path) {
      let (contents, durable) = SpoolDropCountersFormat.decode(bytes)
      switch contents {
      case .valid(let found):
        record = found
        newestDurableSlot = durable
        create = false
      case .newerVersion(let version):
        try setAside(path, fileSystem, "written by a newer build (version \(version))", events)
      case .damaged(let why):
        try setAside(path, fileSystem, why, events)
      }
    }
    if create {
      record = SpoolDropCountersFormat.Record(generation: 1)
      let plain = AtomicFile.Options(envelope: false, keepPrevious: false, preflightMargin: 0)
      try AtomicFile(path: path, fileSystem: fileSystem, options: plain).write(
        SpoolDropCountersFormat.newFile(record))
    }
    let handle = try fileSystem.open(path, .readWrite)
    // Where the file system cannot map files, every change is a positional write instead.
    let mapping = try? fileSystem.map(
      handle, length: UInt64(SpoolDropCountersFormat.fileSize))
    return SpoolDropCounters(
      path: path, fileSystem: fileSystem, record: record, handle: handle, mapping: mapping,
      newestDurableSlot: newestDurableSlot)
  }

  /// Renames an unreadable counters file to the first free `<path>.corrupt-N` and reports it.
  private static func setAside(
    _ path: String, _ fileSystem: any FileSystem, _ why: String, _ events: EventSink
  ) throws(StoreError) {
    var number = 1
    while try fileSystem.exists("\(path).corrupt-\(number)") { number += 1 }
    let destination = "\(path).corrupt-\(number)"
    try fileSystem.rename(path, to: destination)
    try fileSystem.syncDirectory(StorePath.directory(of: path))
    events.emit(
      SpoolEvents.dropCountsReset,
      [("path", path), ("quarantinedAs", destination), ("reason", why)])
  }

  /// The counts now.
  public var counts: SpoolDropCounts { state.withLock { $0.record.counts } }

  /// The writes of the counters file that failed since open (the counts in memory, which
  /// ``counts`` reports, are right; the file is behind until a later write succeeds).
  public var writeFailures: Int { state.withLock { $0.writeFailures } }

  /// Counts `count` more records dropped for `reason`: in the kernel (a live copy in the file)
  /// when this returns.
  ///
  /// After ``close()`` the count is written all the same, by a short open of the file under
  /// the spool's lock, unless another opener holds the spool.
  public func add(_ count: UInt64, reason: SpoolDropReason) {
    guard count > 0 else { return }
    let (observers, isClosed) = state.withLock { state in
      let before = state.record.counts[reason]
      state.record.counts[reason] &+= count
      assert(
        SpoolRules.countGrows(from: before, to: state.record.counts[reason]),
        "@Q1: the \(reason) drop count went down")
      if !state.isClosed { writeLive(&state) }
      return (state.observers, state.isClosed)
    }
    if isClosed { writeLate(count, reason: reason) }
    for observer in observers { observer() }
  }

  /// Writes a count added after ``close()`` into the file: takes the spool's lock (released
  /// by the close), opens the file, adds the count (a live copy, in the kernel when this
  /// returns, not synced), closes it and releases the lock. One thread writes at a time; counts
  /// added meanwhile are written by it before it returns. When another opener holds the spool
  /// the file is its own: this count and later ones stay in memory (``counts``).
  private func writeLate(_ count: UInt64, reason: SpoolDropReason) {
    let writes = late.withLock { late -> Bool in
      guard !late.givenUp else { return false }
      late.pending[reason] &+= count
      defer { late.writing = true }
      return !late.writing
    }
    guard writes else { return }
    while true {
      let pending = late.withLock { late -> SpoolDropCounts? in
        guard late.pending.total > 0 else {
          late.writing = false
          return nil
        }
        defer { late.pending = SpoolDropCounts() }
        return late.pending
      }
      guard let pending else { return }
      guard Self.addUnderSpoolLock(pending, path: path, fileSystem: fileSystem) else {
        late.withLock { late in
          late.givenUp = true
          late.writing = false
        }
        return
      }
    }
  }

  /// Opens the counters file at `path` under the lock of its spool, adds `counts` and closes
  /// it (not synced); false when the lock or the file cannot be had.
  private static func addUnderSpoolLock(
    _ counts: SpoolDropCounts, path: String, fileSystem: any FileSystem
  ) -> Bool {
    let root = StorePath.directory(of: path)
    guard let lock = try? SpoolLock.acquire(root: root, fileSystem: fileSystem) else {
      return false
    }
    defer { try? lock.release() }
    guard let counters = try? SpoolDropCounters.open(path: path, fileSystem: fileSystem) else {
      return false
    }
    for reason in SpoolDropReason.allCases where counts[reason] > 0 {
      counters.add(counts[reason], reason: reason)
    }
    return true
  }

  /// Makes the counts durable: writes a durable copy and syncs the file. Does nothing when
  /// nothing changed since the last sync.
  ///
  /// - Throws: The write's or the sync's error (the counts in memory stay right).
  public func sync() throws(StoreError) {
    syncLock.wait()
    defer { syncLock.signal() }
    try syncHoldingSyncLock(force: false)
  }

  /// Syncs and closes the file. Later changes are counted in memory and written by a short
  /// open of the file under the spool's lock (see ``add(_:reason:)``).
  ///
  /// - Throws: The sync's or the close's error.
  public func close() throws(StoreError) {
    syncLock.wait()
    defer { syncLock.signal() }
    var failure: StoreError?
    do throws(StoreError) {
      try syncHoldingSyncLock(force: false)
    } catch {
      failure = error
    }
    let (handle, mapping) = state.withLock { state in
      defer {
        state.handle = nil
        state.mapping = nil
        state.isClosed = true
      }
      return (state.handle, state.mapping)
    }
    do throws(StoreError) {
      try mapping?.close()
      if let handle { try fileSystem.close(handle) }
    } catch {
      failure = failure ?? error
    }
    if let failure { throw failure }
  }

  /// Calls `observer` after every ``add(_:reason:)`` (on the adding thread, outside the lock):
  /// the spool uses it to report drops as events.
  package func observe(_ observer: @escaping @Sendable () -> Void) {
    state.withLock { $0.observers.append(observer) }
  }

  // MARK: - Drops of stored records

  /// Records, durably, that `count` records are about to be removed for `reason` by dropping
  /// the journal through `through`. Call ``completeDrop()`` once they were removed.
  ///
  /// - Throws: The write's or the sync's error: then nothing may be removed.
  package func beginDrop(_ count: UInt64, reason: SpoolDropReason, through: UInt64)
    throws(StoreError)
  {
    syncLock.wait()
    defer { syncLock.signal() }
    state.withLock { state in
      state.record.pending = SpoolDropCountersFormat.PendingDrop(
        reason: reason.rawValue, count: count, through: through)
      state.dirty = true
    }
    try syncHoldingSyncLock(force: true)
  }

  /// Counts the drop ``beginDrop(_:reason:through:)`` recorded: its records were removed.
  package func completeDrop() {
    let observers = state.withLock { state -> [@Sendable () -> Void] in
      guard let pending = state.record.pending else { return [] }
      let before = state.record.counts.slots[pending.reason]
      state.record.counts.slots[pending.reason] &+= pending.count
      assert(
        SpoolRules.countGrows(from: before, to: state.record.counts.slots[pending.reason]),
        "@Q1: a completed removal made a drop count go down")
      state.record.pending = nil
      writeLive(&state)
      return state.observers
    }
    for observer in observers { observer() }
  }

  /// Forgets, durably, the drop ``beginDrop(_:reason:through:)`` recorded: its records were not
  /// removed. Durable, so that a later drop through the same records (an acknowledged batch)
  /// is never taken for it.
  ///
  /// - Throws: The write's or the sync's error.
  package func abandonDrop() throws(StoreError) {
    syncLock.wait()
    defer { syncLock.signal() }
    let had = state.withLock { state -> Bool in
      defer { state.record.pending = nil }
      return state.record.pending != nil
    }
    if had { try syncHoldingSyncLock(force: true) }
  }

  /// The drop under way that a crash interrupted, if any: the caller decides with
  /// ``completeDrop()`` or ``abandonDrop()`` from what the journal kept.
  package var pendingDrop: (count: UInt64, reason: SpoolDropReason, through: UInt64)? {
    state.withLock { state in
      guard let pending = state.record.pending,
        let reason = SpoolDropReason(rawValue: pending.reason)
      else { return nil }
      return (pending.count, reason, pending.through)
    }
  }

  // MARK: - Writing

  /// Writes the state into the live slot after the one written last (the generation's parity
  /// chooses it), under the lock.
  private func writeLive(_ state: inout State) {
    state.record.generation &+= 1
    state.dirty = true
    write(&state, slot: 2 + Int(state.record.generation % 2))
  }

  /// Writes the durable slot that is not the newest synced one, then syncs outside the state
  /// lock. Call holding ``syncLock``.
  private func syncHoldingSyncLock(force: Bool) throws(StoreError) {
    let target = state.withLock { state -> (StoreFileHandle, Int)? in
      guard let handle = state.handle, state.dirty || force else { return nil }
      state.record.generation &+= 1
      state.dirty = false
      let slot = 1 - state.newestDurableSlot
      write(&state, slot: slot)
      return (handle, slot)
    }
    guard let (handle, slot) = target else { return }
    do throws(StoreError) {
      try fileSystem.sync(handle)
    } catch {
      state.withLock { $0.dirty = true }
      throw error
    }
    state.withLock { $0.newestDurableSlot = slot }
  }

  /// Stores the record into `slot` through the mapping, or with a positional write.
  private func write(_ state: inout State, slot: Int) {
    let offset = SpoolDropCountersFormat.offset(ofSlot: slot)
    let record = state.record
    do throws(StoreError) {
      if let mapping = state.mapping {
        try mapping.write(count: SpoolDropCountersFormat.slotSize, at: UInt64(offset)) {
          SpoolDropCountersFormat.store(record, into: $0)
        }
      } else if let handle = state.handle {
        var bytes = [UInt8](repeating: 0, count: SpoolDropCountersFormat.slotSize)
        bytes.withUnsafeMutableBytes { SpoolDropCountersFormat.store(record, into: $0) }
        try fileSystem.write(handle, bytes, at: UInt64(offset))
      }
    } catch {
      state.writeFailures += 1
    }
  }
}

extension SpoolDropCounters {
  /// What a drop counters file holds, read without opening it (``open(path:fileSystem:events:)``
  /// would set a damaged file aside): what `stoic inspect` shows.
  public enum Stored: Sendable, Hashable {
    /// The counts; `pendingRecords` is the count of a removal recorded as under way (the next
    /// open settles it), if any.
    case counts(SpoolDropCounts, pendingRecords: UInt64?)
    /// There is no file.
    case missing
    /// A newer build wrote it (the next open sets it aside and counts from zero).
    case newerVersion(UInt8)
    /// No copy in it checks (the next open sets it aside and counts from zero).
    case damaged(String)
  }

  /// Reads the drop counters file at `path` without changing it.
  ///
  /// - Throws: The file system's errors (a permission, an I/O error).
  public static func readStored(path: String, fileSystem: any FileSystem) throws(StoreError)
    -> Stored
  {
    guard let bytes = try fileSystem.readWholeFile(path) else { return .missing }
    switch SpoolDropCountersFormat.decode(bytes).contents {
    case .valid(let record): return .counts(record.counts, pendingRecords: record.pending?.count)
    case .newerVersion(let version): return .newerVersion(version)
    case .damaged(let why): return .damaged(why)
    }
  }
}

/// How many records a spool dropped, per reason, over its whole life (the counts survive
/// restarts, see ``SpoolDropCounters``).
public struct SpoolDropCounts: Sendable, Hashable, CustomStringConvertible {
  /// Every counter slot of the file, those of reasons this build does not know included (a
  /// newer build's), so that they are written back as they were.
  var slots: [UInt64]

  /// All zero.
  public init() {
    slots = Array(repeating: 0, count: SpoolDropCountersFormat.counterSlots)
  }

  /// The records dropped for `reason`.
  public subscript(reason: SpoolDropReason) -> UInt64 {
    get { slots[reason.rawValue] }
    set { slots[reason.rawValue] = newValue }
  }

  /// Dropped by the byte limit.
  public var quota: UInt64 { self[.quota] }
  /// Dropped by the age limit.
  public var age: UInt64 { self[.age] }
  /// Dropped after a disk error.
  public var diskError: UInt64 { self[.diskError] }
  /// Dropped because they could not be encoded.
  public var encoding: UInt64 { self[.encoding] }
  /// Dropped because they were logged after the spool was closed.
  public var afterClose: UInt64 { self[.afterClose] }
  /// Every drop, of every reason (those of a newer build's reasons included).
  public var total: UInt64 { slots.reduce(0, &+) }

  /// `quota=N age=N disk_error=N encoding=N after_close=N`.
  public var description: String {
    SpoolDropReason.allCases.map { "\($0)=\(self[$0])" }.joined(separator: " ")
  }
}

/// Why records were dropped: each reason has its own persistent counter in
/// ``SpoolDropCounters``.
public enum SpoolDropReason: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The spool was at its byte limit (``LogSpoolOptions/byteLimit``): the oldest records were
  /// removed, or a new one was refused, as ``LogSpoolOptions/whenFull`` says.
  case quota = 0
  /// The records were older than ``LogSpoolOptions/maximumAge``.
  case age = 1
  /// Writing failed (disk full, an I/O error, a journal poisoned by a failed sync), or the
  /// spool was not writable until it recovered.
  case diskError = 2
  /// The record could not be encoded (larger than the journal's largest record).
  case encoding = 3
  /// The record was logged after the spool was closed (in a service, by code that still logs
  /// after Stoic's shutdown).
  case afterClose = 4

  /// The name in events and metrics: `quota`, `age`, `disk_error`, `encoding`, `after_close`.
  public var description: String {
    switch self {
    case .quota: "quota"
    case .age: "age"
    case .diskError: "disk_error"
    case .encoding: "encoding"
    case .afterClose: "after_close"
    }
  }
}
