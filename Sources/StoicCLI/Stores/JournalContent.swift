import StoicCollector
import StoicStore

/// How every command tells what a journal's directory holds: the one rule `inspect`, `verify`,
/// `query` and `tail` share (`--as` overrides it in each).
///
/// - The log, metrics or span journal of a spool (a directory named `logs`, `metrics` or
///   `spans` in a spool's root) is a journal, whatever its records look like.
/// - A journal without a snapshot whose first record decodes, to its last byte, as a collector
///   entry (``CollectorEntry``) is the example collector's store. Checked first: a collector's
///   first batch also passes the outbox's test.
/// - A journal whose snapshot is an outbox snapshot (`SOBX`), or whose first record is an
///   outbox enqueue record (type 3, version 1; or the older type 1 with a key), is an outbox.
/// - Anything else is a journal.
enum JournalContent {
  /// Whether `directory` is a journal of the spool around it (`logs/`, `metrics/` or
  /// `spans/`).
  static func isSpoolJournal(_ directory: String) -> Bool {
    ["logs", "metrics", "spans"].contains(StorePath.name(of: directory))
      && SpoolLocation.isSpoolRoot(StorePath.directory(of: directory))
  }

  /// Whether a journal with a snapshot or not, and this first record, is a collector's store.
  static func isCollector(hasSnapshot: Bool, firstRecordIsCollectorEntry: Bool) -> Bool {
    !hasSnapshot && firstRecordIsCollectorEntry
  }

  /// Whether a journal whose snapshot and first record begin so is an outbox.
  static func isOutbox(snapshotPrefix: [UInt8], firstRecordPrefix: [UInt8]) -> Bool {
    if snapshotPrefix.starts(with: Array("SOBX".utf8)) { return true }
    guard firstRecordPrefix.count >= 3 else { return false }
    if firstRecordPrefix[0] == 0x03 && firstRecordPrefix[1] == 0x01 { return true }
    return firstRecordPrefix[0] == 0x01 && (firstRecordPrefix[1] != 0 || firstRecordPrefix[2] != 0)
  }

  /// What the journal in `directory` holds, by its snapshot and its first record, read over an
  /// overlay (nothing on disk changes); ``StoreKind/journal`` when it cannot be read.
  static func detect(_ directory: String) -> StoreKind {
    guard !isSpoolJournal(directory) else { return .journal }
    let journal: Journal
    do throws(StoreError) {
      journal = try Journal.open(
        directory: directory, fileSystem: OverlayFileSystem(),
        options: JournalExamination.options(
          maxRecordSize: CollectorArchive.maxRecordBytes, salvage: true))
    } catch {
      return .journal
    }
    defer { try? journal.close() }
    let snapshot = (try? journal.snapshot())?.map { Array($0.bytes.prefix(8)) }
    var prefix: [UInt8] = []
    var isEntry = false
    struct First: Error {}
    try? journal.forEachRecordBorrowing(from: 0) { (_, payload) throws(First) in
      prefix = Array(UnsafeRawBufferPointer(rebasing: payload.prefix(8)))
      isEntry = CollectorEntry.decode(payload, withBody: false) != nil
      throw First()
    }
    if isCollector(hasSnapshot: snapshot != nil, firstRecordIsCollectorEntry: isEntry) {
      return .collector
    }
    return isOutbox(snapshotPrefix: snapshot ?? [], firstRecordPrefix: prefix) ? .outbox : .journal
  }
}
