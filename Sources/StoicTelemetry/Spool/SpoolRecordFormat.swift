public import StoicStore

/// What a ``RecordSpool`` needs to know of the records it holds: what they are called, the time
/// a stored record carries (for the age limit), and how one of the spool's own events is
/// written as a record, if at all.
///
/// Everything else (quota, retention, drop accounting, recovery, maintenance, reading in
/// order) is the spool's, the same for every signal; writing a record and decoding one are the
/// format's own API, as extensions of `RecordSpool where Format == …` (``LogRecordFormat``'s
/// are ``RecordSpool/log(_:)`` and ``RecordSpool/forEachRecord(from:through:_:)``). The
/// spool appends encoded bytes through its internal append, which sizes, admits, writes in
/// place and counts what it drops.
public protocol SpoolRecordFormat: SendableMetatype {
  /// What the records are called in the spool's errors (`"log"`: "the log spool is closed").
  static var recordKind: String { get }

  /// The wall-clock time a stored record carries, in nanoseconds since 1970-01-01 00:00:00
  /// UTC, read from its encoded bytes (borrowed for the call); `nil` when they are not a
  /// record this build can read (the age limit then keeps its segment until a later one is
  /// old).
  static func timeNanoseconds(of record: UnsafeRawBufferPointer) -> Int64?

  /// Writes one of the spool's own events into `spool` as a record of this format, or does
  /// nothing where the format holds no events (they are passed on to the app's sink either
  /// way). Called on the spool's maintenance path, never while a lock is held.
  static func write(event: StoreEvent, into spool: RecordSpool<Self>)
}
