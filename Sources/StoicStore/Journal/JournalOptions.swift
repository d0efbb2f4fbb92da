/// How a ``Journal`` is opened and runs.
public struct JournalOptions: Sendable {
  /// When appends become durable. Default ``SyncPolicy/always``: nothing an append acknowledged
  /// is lost to a power cut, at the price of one device flush per append (concurrent appenders
  /// share flushes). ``SyncPolicy`` compares the policies; a single writer that may lose a
  /// bounded window of records runs far faster with ``SyncPolicy/everyRecords(_:)`` or
  /// ``SyncPolicy/interval(_:)`` (BENCHMARKS.md has the figures).
  public var syncPolicy: SyncPolicy
  /// The largest payload one record may carry, in bytes. Larger appends throw
  /// ``StoreError/Code/invalidArgument``; a stored frame claiming more is invalid, so do not
  /// lower it for an existing journal. At most 1 GiB. Default 1 MiB.
  public var maxRecordSize: Int
  /// The size at which the active segment is sealed and a new one started. Default 8 MiB.
  public var segmentSize: UInt64
  /// How many bytes recovery and readers of `.log` segments keep in memory at once (at least
  /// one whole frame of ``maxRecordSize`` is always allowed). Default 64 KiB. Readers of
  /// compressed segments hold two blocks instead (about 1 MiB of payload each, or one record
  /// if larger, as stored, decompressed and rebuilt bytes, and the stored bytes of the block
  /// each last decoded: a few MiB, whatever the journal's size).
  public var readWindow: Int
  /// Whether sealed segments are rewritten as zstd-compressed blocks. Default `true`.
  public var compressSealedSegments: Bool
  /// Whether full segments are sealed and compressed on a background queue (`true`, the
  /// default) or by the next sync, roll, drop or close of the journal (`false`: deterministic,
  /// for crash exploration on a simulated disk). The files and the crash-safety of the sequence
  /// are the same either way; only who waits for it differs.
  /// ``Journal/compressSealedSegments()`` waits for the background work.
  public var backgroundMaintenance: Bool
  /// The zstd level for sealed segments and snapshots. Default ``defaultCompressionLevel``
  /// (1): on log records it compresses about as well as level 3, and faster (BENCHMARKS.md has
  /// the figures).
  public var compressionLevel: Int32
  /// Whether appends copy their frames into a shared mapping of the active segment (`true`, the
  /// default: no system call per append, but one positional write of zeros ahead per 256 KiB)
  /// or write each with a positional write (`false`). The files, their format and the
  /// crash-safety are the same either way; a record is in the kernel's page cache when the
  /// append returns in both. With mappings, the active segment is preallocated in steps
  /// (4 KiB doubling up to ``segmentSize``) and its unused tail is zeros, cut when the segment
  /// is sealed or the journal closed. Where a mapping cannot be made (a file system that
  /// cannot map files, or no space to reserve), the journal falls back to positional writes
  /// and reports ``StoreEvents/journalMappingUnavailable``.
  public var mappedAppends: Bool
  /// Whether open salvages damaged durable data (quarantines the damaged bytes, keeps every
  /// valid later record, reports ``StoreEvents/journalSalvaged``) instead of refusing with
  /// ``StoreError/Code/corrupt``. Default `false`.
  public var salvage: Bool
  /// Deliberate defects for the crash suite's mutation tests; empty in real use, and out of
  /// the public API (testing SPI).
  @_spi(Testing) public var mutations: JournalMutations
  /// How many bytes of the mapped tail an append writes with zeros ahead of itself (see
  /// ``Journal/writeZeros(through:within:core:)``); 0 turns it off. Tests use small chunks to cross
  /// many of them.
  var zeroAheadBytes = 256 << 10
  /// The rate of appends, bytes a second between the journal's last two syncs, at or above
  /// which they write zeros ahead of themselves (``JournalZerosAhead``): 16 MiB a second (about
  /// 80,000 records of 200 bytes). 0 writes them at any rate (the crash tests, which must cross
  /// many chunks).
  var zeroAheadMinimumRate: UInt64 = 16 << 20
  /// Where reads of compressed segments borrow their block buffers: the process's pool, or a
  /// test's own (so that what another journal left there does not count in its measures).
  var blockPool = JournalCompressedBlockPool.shared

  /// The journal's default zstd level: 1.
  public static let defaultCompressionLevel: Int32 = 1

  /// Creates options; every parameter has the default described on its property.
  public init(
    syncPolicy: SyncPolicy = .always,
    maxRecordSize: Int = 1 << 20,
    segmentSize: UInt64 = 8 << 20,
    readWindow: Int = 64 << 10,
    compressSealedSegments: Bool = true,
    compressionLevel: Int32 = JournalOptions.defaultCompressionLevel,
    salvage: Bool = false,
    backgroundMaintenance: Bool = true,
    mappedAppends: Bool = true
  ) {
    self.mappedAppends = mappedAppends
    self.backgroundMaintenance = backgroundMaintenance
    self.syncPolicy = syncPolicy
    self.maxRecordSize = maxRecordSize
    self.segmentSize = segmentSize
    self.readWindow = readWindow
    self.compressSealedSegments = compressSealedSegments
    self.compressionLevel = compressionLevel
    self.salvage = salvage
    self.mutations = []
  }
}

/// Deliberate defects of the journal, switched on only by the mutation tests (through
/// ``JournalOptions/mutations``, testing SPI) to show that the crash suite catches them. A
/// bit set, so that checking one on a write path costs a mask, not a hash.
@_spi(Testing) public struct JournalMutations: OptionSet, Sendable, Hashable {
  /// The bits.
  public let rawValue: UInt8

  /// The defects whose bits are set in `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// A created segment's name is never made durable (no directory sync after create).
  public static let noDirectorySyncOnCreate = JournalMutations(rawValue: 1 << 0)
  /// Open neither cuts a torn tail nor overwrites it: appends continue after the garbage.
  public static let noTailTruncation = JournalMutations(rawValue: 1 << 1)
  /// Dropping data removes the covered segments before the checkpoint that covers them is
  /// durable.
  public static let truncateBeforeSnapshot = JournalMutations(rawValue: 1 << 2)
  /// Sealing a segment leaves the zeros its mapping preallocated after its last frame.
  public static let keepPreallocationOnSeal = JournalMutations(rawValue: 1 << 3)
  /// A sync of the active segment does not first finish the pending seal of the segment
  /// before it.
  public static let syncBeforeSeal = JournalMutations(rawValue: 1 << 4)
  /// Zeros written ahead of the appends start at the chunk boundary below the active end,
  /// over the last frames, instead of the one above it.
  public static let zerosOverTheEnd = JournalMutations(rawValue: 1 << 5)
}
