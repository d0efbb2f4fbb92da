import StoicCollector
import StoicForwarding
import StoicStore

/// What the example collector's store holds: the tool opens it with ``CollectorArchive``'s own
/// open (its journal replayed, its index of keys and its counts rebuilt) over an
/// ``OverlayFileSystem``, so a store a running collector holds is read as it is, without its
/// lock and without a byte written, and lists every entry: the batches stored (by key and
/// producer), the duplicates answered from a stored response, the key conflicts, and the
/// entries that do not decode.
struct CollectorExamination {
  /// One stored batch.
  struct Batch {
    /// The journal record's sequence.
    var sequence: UInt64
    /// The record's size.
    var bytes: Int
    /// What it holds.
    var batch: CollectorBatch
    /// How many later requests with its key were answered from it.
    var duplicates = 0
  }

  /// A key a request reused with another body (answered 422, nothing stored).
  struct Conflict {
    /// The journal record's sequence.
    var sequence: UInt64
    /// Logs or metrics.
    var signal: OTLPSignal
    /// The key.
    var key: String
  }

  /// The batches, in the order stored.
  var batches: [Batch] = []
  /// The key conflicts, in the order recorded.
  var conflicts: [Conflict] = []
  /// Replays of a key no stored batch has (the batch's record lost, or the marker damaged).
  var orphanDuplicates = 0
  /// The sequences of the entries that do not decode (kept, counted, skipped).
  var unreadable: [UInt64] = []
  /// The counts the collector's `/stats` would rebuild from its store.
  var stats = CollectorStats()
  /// What was found.
  var findings: [Finding] = []
  /// An error that kept the tool from reading (not damage).
  var failure: StoreError?

  /// Opens the collector's store in `directory` over an overlay and lists what it holds.
  ///
  /// - Parameter maxRecordSize: The journal's largest record (at least the collector's own,
  ///   ``CollectorArchive/maxRecordBytes``, is used).
  static func run(directory: String, maxRecordSize: Int) -> CollectorExamination {
    var examination = CollectorExamination()
    let archive: CollectorArchive
    do throws(StoreError) {
      archive = try CollectorArchive.open(
        directory: directory, fileSystem: OverlayFileSystem(),
        options: JournalExamination.options(
          maxRecordSize: max(maxRecordSize, CollectorArchive.maxRecordBytes), salvage: false))
    } catch {
      examination.failure = error
      return examination
    }
    defer { try? archive.close() }
    examination.stats = archive.stats
    var byKey: [String: Int] = [:]
    do throws(StoreError) {
      try archive.forEachEntry { sequence, bytes, entry in
        switch entry {
        case .batch(let batch)?:
          if !batch.key.isEmpty { byKey[batch.key] = examination.batches.count }
          examination.batches.append(Batch(sequence: sequence, bytes: bytes, batch: batch))
        case .duplicate(_, let key)?:
          if let index = byKey[key] {
            examination.batches[index].duplicates += 1
          } else {
            examination.orphanDuplicates += 1
          }
        case .conflict(let signal, let key)?:
          examination.conflicts.append(Conflict(sequence: sequence, signal: signal, key: key))
        case nil:
          examination.unreadable.append(sequence)
        }
      }
      // Each body as the store would give it back: gzip where marked, the CRC it was stored
      // with (damage the journal's own CRC cannot see: a body stored wrong).
      try archive.checkBodies(limit: CollectorLimits().maxDecodedBodyBytes) { sequence, problem in
        examination.findings.append(
          Finding(.damage, .damage, file: directory, "batch \(sequence): \(problem)"))
      }
    } catch {
      examination.failure = error
    }
    for sequence in examination.unreadable {
      examination.findings.append(
        Finding(
          .warning, .unreadableEntry, file: directory,
          "record \(sequence) is not a collector entry this build can read: kept as it is, "
            + "counted in unreadableEntries"))
    }
    if examination.orphanDuplicates > 0 {
      examination.findings.append(
        Finding(
          .note, .recovery, file: directory,
          "\(examination.orphanDuplicates) duplicates of a key no stored batch has"))
    }
    return examination
  }

  /// The producers, by name, with what the store holds of each.
  var producers: [(name: String, counts: CollectorStats.Producer)] {
    stats.producers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }
}
