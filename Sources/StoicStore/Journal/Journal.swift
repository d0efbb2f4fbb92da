import Dispatch

/// An append-only, CRC-framed log of records, crash-consistent at every point, with group
/// commit, zstd-compressed sealed segments, snapshots, and recovery in bounded memory.
///
/// ## On-disk layout
///
/// A journal owns one directory:
///
/// - `journal.lock`: held with an advisory lock (``FileSystem/lock(_:)``) while the journal is
///   open; a second opener gets ``StoreError/Code/locked``.
/// - `journal-<first>.log`: a segment of frames, named by the first sequence it may hold
///   (16 hex digits). The one with the highest `first` is the active segment; appends go there.
///   While it is active its file may run on past the last frame with zeros (the blocks its
///   mapping reserved, see ``JournalOptions/mappedAppends``); sealing cuts them.
///   Frames are records, `length:u32 | crc32c:u32 | sequence:u64 | payload` (little-endian,
///   `length` counts sequence and payload, the CRC covers the length bytes and the body), and
///   sync markers, the same header with the top bit of `length` set and the body
///   `durableSequence:u64 | durableEnd:u64 | segmentFirst:u64 | position:u64`.
/// - `journal-<first>-<end>-<records>-<bytes>.zst`: a sealed segment rewritten as compressed
///   blocks, its name recording where its records end (16 hex digits; its first sequence - 1
///   if it holds none), how many it holds and the file's size (hex), so that an open places it
///   without reading it (see `JournalFileNames`; `journal-<first>.zst`, the name's earlier
///   form, is read too). Its format (version 2,
///   see `JournalCompressedSegment`), each with its own CRC over the stored bytes (a bad block
///   is refused by its checksum, never handed to the decompressor), ending in a trailer with
///   the record count and last sequence. A block holds about 1 MiB of payload with no
///   per-record header: a first sequence and a count, then the records as columns (the bytes
///   shared with the previous record's start and end, the length of the rest) and the rests,
///   zstd-compressed; its decoded layout is checked whole before any record is handed out.
/// - `journal.checkpoint`: the low-water mark (records at or below it are dropped) and the
///   caller's zstd-compressed snapshot, replaced atomically (temporary file, sync, rename,
///   directory sync).
/// - `*.tmp` are temporaries, removed at open; `*.corrupt-<offset>` are quarantined bytes,
///   never deleted by the journal.
///
/// ## Durability argument
///
/// - Every append stores its frames in the kernel's page cache before returning (straight into
///   a shared mapping of the active segment, whose blocks were reserved first, or with one
///   positional write), so a record survives a crash of the process. A record is *durable*
///   (survives power loss) once a sync of its segment returned after the write;
///   ``SyncPolicy`` says when that happens, and with ``SyncPolicy/always`` and
///   ``SyncPolicy/groupCommit(maxDelay:maxRecords:)`` an append returns only then. The
///   leader of a group commit syncs for every appender waiting.
/// - A segment's name is made durable (directory sync) before any record in it is acknowledged
///   durable: the name is part of the data.
/// - After each sync returns, the journal appends a sync marker claiming the synced prefix. A
///   marker is written only after the data it claims was durable, so any valid marker is proof.
/// - A full segment is replaced at once by a new one, and sealed afterwards: its data synced,
///   a final marker appended, its preallocated zeros cut, synced again, and the new segment's
///   name made durable by a directory sync. The seal runs in the background, or is made by the
///   next sync, roll, drop or close, whichever comes first, and every sync of the new segment
///   makes it first: no record of the new segment is durable while the old one may be torn.
///   At most one seal is pending. Sealed segments are compressed by writing the `.zst` to a
///   temporary, syncing it, renaming it into place, syncing the directory, and only then
///   removing the `.log`. By default this runs on a background queue after the seal
///   (``JournalOptions/backgroundMaintenance``), so no append waits for compression;
///   the sequence and its safety are the same either way, and a sealed `.log` is as good as
///   its `.zst` until then.
/// - Dropping data (``dropThrough(_:)``, ``writeSnapshot(covering:bytes:)``) first makes the
///   checkpoint with the new low-water mark durable and only then removes whole sealed segments
///   it covers; a crash between the two leaves covered segments that open removes. Cost is
///   proportional to the segments removed and the snapshot, not to the backlog.
/// - A failed write is rolled back by truncating to the last good end, so a later append never
///   follows a partial frame. A failed sync poisons the journal (``StoreError/Code/poisoned``)
///   until it is reopened: after `EIO` the kernel may have dropped the unsynced pages.
///
/// ## Recovery rules (at open)
///
/// The rules a journal's segments keep, and what open does with a directory that breaks one,
/// are written down once (`JournalSegmentRules`, its cases labelled @A to @J, and @K to @P
/// where open applies them) and applied to `.log` and `.zst` segments alike, at every open:
/// whatever one open accepts, the next accepts too, and a record acknowledged after an open is
/// never removed by the next one.
///
/// 1. Remove stale temporaries; read the checkpoint (a damaged one is corruption).
/// 2. One file per first sequence: where a `.zst` and a `.log` name the same one (compression
///    stopped between renaming the `.zst` into place and removing the `.log`), the `.log` is
///    removed if the `.zst` reads whole and holds exactly its records; otherwise the copy
///    holding less (or a `.zst` that does not read) is set aside as `<name>.corrupt-0`. Remove
///    sealed segments wholly at or below the low-water mark (finishing an interrupted drop).
/// 3. A sealed `.zst` segment is placed by what its name records (where its records end, how
///    many, its size), without opening it: it was renamed into place under that name only
///    after it was durable, so no crash leaves a name that does not describe its file, and an
///    open costs the same whatever the number of compressed segments. The first read that
///    reaches the segment checks its header, trailer and size against its name before it hands
///    out any of its records, and each block by its CRC, so damage is refused with
///    ``StoreError/Code/corrupt`` by that read, not by open; a journal with
///    ``JournalOptions/salvage`` sets a segment whose ends fail aside there and reads on, as
///    an open that checked them would have (a block found damaged after records of its segment
///    were handed out is refused: those records were read). A `.zst` under the name's earlier
///    form, `journal-<first>.zst`, is trusted once its header and trailer (record count, last
///    sequence) check at open. Every `.log` segment
///    is scanned in order through a bounded window (at most `max(readWindow, one frame)` bytes
///    in memory). A frame is valid only if it fits in the file, is within `maxRecordSize`, its
///    CRC checks, its sequence is at least its segment's first and at most 2^62
///    (`JournalFrame.maximumSequence`), and above its predecessor's (a hole of zeros is never
///    valid).
/// 4. Every segment must be in place, in order: the first at or below the low-water mark + 1,
///    each next one right after the last record of the one before (a segment holding no record
///    ends at its first sequence - 1). A segment starting at or below a record of the one
///    before (two files claiming the same sequences) is refused with ``StoreError/Code/corrupt``
///    naming it, or with ``JournalOptions/salvage`` set aside whole. Records missing before a
///    segment are refused the same way, or with salvage accepted and reported
///    (``StoreEvents/journalCorruptionDetected`` and ``StoreEvents/journalSalvaged``); when
///    they come before the first segment, salvage raises the low-water mark to just below it
///    (the checkpoint is rewritten, its snapshot kept), so the journal is whole again.
/// 5. The active segment is the last `.log`. Its tail of zeros up to the end of the file is its
///    unused preallocation: the end, not damage, and nothing is reported. The segment before
///    it, if a `.log`, is recovered as the active one is (its seal may not have happened),
///    then: if its last record is the one before the active segment's first, its tail is cut
///    and it is sealed. Otherwise, if the active segment holds no valid sync marker, power was
///    lost before the seal, nothing in the active segment can have been durable (every sync of
///    it makes the seal first), and the active segment is removed
///    (``StoreEvents/journalTruncated``), leaving this one active. A valid sync marker in the
///    active segment proves the seal had been made: the records between are missing, as in 4.
/// 6. At the first invalid frame of the active segment, look for a valid sync marker after it
///    claiming a durable end beyond it. If there is one, or if the segment is sealed, the damage
///    is inside data that had been durable: corruption. Open refuses with
///    ``StoreError/Code/corrupt`` (cause ``JournalDamage``: file, offset, length) and the
///    event ``StoreEvents/journalCorruptionDetected``, unless ``JournalOptions/salvage`` is
///    set: then the damaged bytes are copied to `<segment>.corrupt-<offset>`, every valid later
///    record is kept (the segment is rewritten atomically without the damage), and
///    ``StoreEvents/journalSalvaged`` reports it. A valid *record* after the damage is never
///    taken as proof on its own: a crash can keep a later pending write without an earlier one.
/// 7. Otherwise the damage is a torn tail: it is cut (truncate, then sync) and
///    ``StoreEvents/journalTruncated`` reports the dropped bytes.
/// 8. If no active segment is left, one is created right after the last record (never under
///    the name of an existing segment: a last segment holding no record, which would share its
///    name, is refused, or set aside by salvage) and the directory synced; once the records
///    reach 2^62 none is (the last segment left, if a `.log`, is the active one then, as the
///    next open takes it), and appends are refused with
///    ``StoreError/Code/sequenceLimitReached``. The active segment is synced, so everything
///    recovered is durable, unless its last frame is a marker that already claims every byte
///    and record before it (a closed journal reopens without a write). An active segment
///    accepted after missing records gets a durable sync marker at open, so that no later open
///    takes it for the segment after a torn seal; so does a `.log` salvage accepts after
///    missing records, as soon as it is placed, since any later open may find it last.
///
/// ## Lifetime
///
/// ``close()`` makes everything durable and closes the files. A journal whose last reference
/// is dropped without a close closes its files and stops its background work: a seal or a
/// compression in progress finishes its one segment (each step of either is crash-safe), and
/// nothing touches the directory after that. What was appended is in the kernel either way; a
/// record that was not yet durable is as durable as the sync policy had made it.
public final class Journal: Sendable {
  /// The journal's directory.
  public let directory: String
  /// What open found and repaired.
  public let recovery: JournalRecovery
  let fileSystem: any FileSystem
  let options: JournalOptions
  let events: EventSink
  /// Everything that changes, behind one lock that puts contending appenders to sleep rather
  /// than spinning (see ``SleepingLock``): group commit wakes many of them at once.
  let state: SleepingLock<JournalCore>
  /// Held while a sealed segment is being compressed, and by whatever must not overlap that
  /// (dropping data, closing). Taken before ``state``, never while holding it.
  let maintenanceLock = DispatchSemaphore(value: 1)
  /// Where the blocks of compressed segments start, learned by reads (see
  /// ``JournalBlockIndex``).
  let blockIndex = JournalBlockIndex()
  /// Where records start in `.log` segments, learned by reads (see ``JournalFrameIndex``).
  let frameIndex = JournalFrameIndex()
  /// Where the journal's background work runs (see `Concurrency.md`): finishing a seal,
  /// compressing sealed segments, the interval policy's timed sync. One thread, started by the
  /// first such job and ended when the journal is released.
  let background = BlockingJobQueue()

  init(
    directory: String, fileSystem: any FileSystem, options: JournalOptions, events: EventSink,
    core: JournalCore, recovery: JournalRecovery
  ) {
    self.directory = directory
    self.fileSystem = fileSystem
    self.options = options
    self.events = events
    self.state = SleepingLock(core)
    self.recovery = recovery
  }

  /// Opens (creating if needed) the journal in `directory`, recovering it as the rules above
  /// say.
  ///
  /// - Parameters:
  ///   - directory: The journal's own directory; created if missing.
  ///   - fileSystem: The door to the disk.
  ///   - options: Sync policy, sizes, salvage.
  ///   - events: Where truncation, compaction, corruption and salvage are reported.
  /// - Returns: The open journal; ``recovery`` says what was repaired.
  /// - Throws: ``StoreError/Code/locked`` if another handle or process holds the journal;
  ///   ``StoreError/Code/corrupt`` for damage inside durable data, or segments that break the
  ///   rules above (unless salvaging); the file system's errors otherwise.
  public static func open(
    directory: String,
    fileSystem: any FileSystem,
    options: JournalOptions = JournalOptions(),
    events: EventSink = .discard
  ) throws(StoreError) -> Journal {
    var recovery = JournalRecovery()
    let core = try JournalOpener(
      directory: directory, fileSystem: fileSystem, options: options, events: events
    ).open(report: &recovery)
    let journal = Journal(
      directory: directory, fileSystem: fileSystem, options: options, events: events,
      core: core, recovery: recovery)
    if options.compressSealedSegments, options.backgroundMaintenance,
      core.sealed.contains(where: { $0.kind == .log })
    {
      // Sealed segments left uncompressed by a close or a crash in the middle of maintenance.
      journal.scheduleMaintenance()
    }
    return journal
  }

  deinit {
    let handles = state.withLock { core -> [StoreFileHandle] in
      guard !core.closed else { return [] }
      core.closed = true
      return [core.sealing?.segment.handle, core.active?.handle, core.lockHandle].compactMap {
        $0
      }
    }
    for handle in handles { try? fileSystem.close(handle) }
    background.finish()
  }

  /// The last sequence handed out (0 for a journal that never held a record). Survives
  /// dropping and snapshots: new records always get higher sequences.
  public var lastSequence: UInt64 { state.withLock { $0.lastSequence } }

  /// Records up to this sequence are durable.
  public var durableSequence: UInt64 { state.withLock { $0.durableSequence } }

  /// Records at or below this sequence have been dropped (by a snapshot or
  /// ``dropThrough(_:)``); reading starts after it.
  public var lowWaterMark: UInt64 { state.withLock { $0.lowWater } }

  /// Whether a failed sync or rollback poisoned the journal; every call then throws
  /// ``StoreError/Code/poisoned`` until it is reopened.
  public var isPoisoned: Bool { state.withLock { $0.poison != nil } }
}
