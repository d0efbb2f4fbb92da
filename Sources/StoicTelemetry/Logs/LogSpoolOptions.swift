import StoicStore

/// How a ``LogSpool`` keeps its records: when they become durable, how much it keeps, and how it
/// recovers from disk errors.
public struct LogSpoolOptions: Sendable {
  /// Records at or above this level are durable (synced) before the log call returns, sharing
  /// syncs with concurrent callers; `nil` makes no log call wait for a sync. Default `.error`.
  public var durableLevel: LogLevel?
  /// The group commit's maximum delay: a record below ``durableLevel`` becomes durable at most
  /// this long after its call returned, by a background sync of everything pending (or
  /// earlier, with the next durable record or ``RecordSpool/flush()``). Default 100 ms.
  public var maxDelay: Duration
  /// The most bytes the log journal's segments may hold. Default 256 MiB. About 4 KiB of it is
  /// kept for the sync markers the journal adds between two measurements (a 64th of the limit
  /// when that is less than 256 KiB).
  public var byteLimit: UInt64
  /// Records older than this are removed, a whole segment at a time, once a newer segment
  /// exists; `nil` (the default) keeps records until the byte limit needs the room.
  public var maximumAge: Duration?
  /// What happens when the spool is full. Default ``LogSpoolFullPolicy/dropOldest``.
  public var whenFull: LogSpoolFullPolicy
  /// The size at which the log journal starts a new segment: the unit of removal. Default
  /// 8 MiB; at most an eighth of ``byteLimit`` is used.
  public var segmentSize: UInt64
  /// The largest encoded record, in bytes; a larger one is dropped and counted (reason
  /// ``SpoolDropReason/encoding``). Default 1 MiB. Do not lower it for an existing spool.
  public var maxRecordSize: Int
  /// Whether damage inside durable records is quarantined and every valid later record kept
  /// (`true`, the default), or makes open refuse the spool with `StoreError.Code.corrupt`.
  public var salvage: Bool
  /// After a disk error, the spool tries to write again (reopening its journal) at most this
  /// often. Default 1 s.
  public var recoveryInterval: Duration
  /// After a full disk, the free space the file system must report before the spool tries to
  /// write again. Default 1 MiB.
  public var resumeFreeSpace: UInt64
  /// ``SpoolEvents/recordsDropped`` is raised at most this often per reason, with the count
  /// since the last one. Default 1 s.
  public var dropEventInterval: Duration
  /// Whether retention, recovery after a disk error and the writing of the spool's own events
  /// run on a background thread of the spool's own (`true`, the default: a `BlockingExecutor`)
  /// or on the thread that logs next, when it returns (`false`: deterministic, for crash tests
  /// on a simulated disk). Either way they never run while a lock other loggers need is held.
  public var backgroundMaintenance: Bool
  /// Metadata keys whose values are replaced with `<redacted>` before a record is encoded, so
  /// that they never reach the disk (nor the forwarder, which reads the disk). Matched without
  /// regard to ASCII case and at any depth of nested metadata; the whole value is replaced.
  /// Default empty; ``commonSecretKeys`` lists the usual suspects:
  ///
  /// ```swift
  /// var options = LogSpoolOptions()
  /// options.redactedKeys = LogSpoolOptions.commonSecretKeys.union(["session-id"])
  /// ```
  ///
  /// Only metadata is redacted: a secret written into a message or a label is stored as is.
  public var redactedKeys: Set<String> {
    didSet { redaction = LogRedaction(redactedKeys) }
  }
  /// Keys that usually carry credentials: `authorization`, `proxy-authorization`, `cookie`,
  /// `set-cookie`, `password`, `passwd`, `secret`, `client_secret`, `token`, `access_token`,
  /// `refresh_token`, `id_token`, `api_key`, `apikey`, `x-api-key`.
  public static let commonSecretKeys: Set<String> = [
    "authorization", "proxy-authorization", "cookie", "set-cookie", "password", "passwd",
    "secret", "client_secret", "token", "access_token", "refresh_token", "id_token", "api_key",
    "apikey", "x-api-key",
  ]
  /// ``redactedKeys`` in the form the log path checks.
  private(set) var redaction: LogRedaction
  /// Deliberate defects for the crash suite's mutation tests; empty in real use, and out of
  /// the public API (testing SPI).
  @_spi(Testing) public var mutations: LogSpoolMutations = []

  /// Creates options; every parameter has the default described on its property.
  public init(
    durableLevel: LogLevel? = .error,
    maxDelay: Duration = .milliseconds(100),
    byteLimit: UInt64 = 256 << 20,
    maximumAge: Duration? = nil,
    whenFull: LogSpoolFullPolicy = .dropOldest,
    segmentSize: UInt64 = 8 << 20,
    maxRecordSize: Int = 1 << 20,
    salvage: Bool = true,
    recoveryInterval: Duration = .seconds(1),
    resumeFreeSpace: UInt64 = 1 << 20,
    dropEventInterval: Duration = .seconds(1),
    backgroundMaintenance: Bool = true,
    redactedKeys: Set<String> = []
  ) {
    self.durableLevel = durableLevel
    self.maxDelay = maxDelay
    self.byteLimit = byteLimit
    self.maximumAge = maximumAge
    self.whenFull = whenFull
    self.segmentSize = segmentSize
    self.maxRecordSize = maxRecordSize
    self.salvage = salvage
    self.recoveryInterval = recoveryInterval
    self.resumeFreeSpace = resumeFreeSpace
    self.dropEventInterval = dropEventInterval
    self.backgroundMaintenance = backgroundMaintenance
    self.redactedKeys = redactedKeys
    self.redaction = LogRedaction(redactedKeys)
  }

  /// The bytes kept free below ``byteLimit`` for the sync markers written between two
  /// measurements of the journal.
  var markerReserve: UInt64 { min(4 << 10, byteLimit / 64) }

  /// The limit the records themselves must stay under.
  var recordLimit: UInt64 { byteLimit - markerReserve }

  /// The segment size in use: at most an eighth of the limit (and at least 1 KiB), so that
  /// whole old segments can always be removed before the limit is reached.
  var effectiveSegmentSize: UInt64 { max(1 << 10, min(segmentSize, byteLimit / 8)) }

  /// Where removal of the oldest segments starts (``LogSpoolFullPolicy/dropOldest``): two
  /// segments below the limit (a quarter of it at most).
  var highWater: UInt64 {
    recordLimit - min(2 * effectiveSegmentSize, recordLimit / 4)
  }

  /// The options of the log journal: appends never wait for a sync except with `durable: true`;
  /// a background sync follows each unsynced append within ``maxDelay``.
  var journalOptions: JournalOptions {
    JournalOptions(
      syncPolicy: .interval(maxDelay), maxRecordSize: maxRecordSize,
      segmentSize: effectiveSegmentSize, salvage: salvage,
      backgroundMaintenance: backgroundMaintenance)
  }
}

/// What a ``LogSpool`` does when its records reach ``LogSpoolOptions/byteLimit``. Every record
/// dropped is counted (reason ``SpoolDropReason/quota``).
public enum LogSpoolFullPolicy: Sendable, Hashable {
  /// Remove the oldest whole segments (records not yet acknowledged by the forwarder) to make
  /// room; the default. The removal runs in the background, started before the limit is
  /// reached; a record that would still cross the limit (records arrive faster than segments
  /// can be removed) is dropped and counted.
  case dropOldest
  /// Keep what is stored and drop each new record while the spool is full.
  case dropNewest
  /// Make the log call wait, at most `timeout`, for room (records acknowledged and dropped by
  /// the forwarder, the age limit, compression of sealed segments); then drop the record.
  case block(timeout: Duration)
}

/// Deliberate defects of the log spool, switched on only by the mutation tests (through
/// ``LogSpoolOptions/mutations``, testing SPI) to show that the crash suite catches them.
@_spi(Testing) public struct LogSpoolMutations: OptionSet, Sendable, Hashable {
  /// The bits.
  public let rawValue: UInt8

  /// The defects whose bits are set in `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Records at or above the durable level return without waiting for their sync.
  public static let noDurableSync = LogSpoolMutations(rawValue: 1 << 0)
  /// A quota drop removes the records without first recording the drop as under way.
  public static let dropWithoutIntent = LogSpoolMutations(rawValue: 1 << 1)
}
