import Testing

@testable import StoicStore
@testable import StoicTesting

/// Builds the files of damaged journal directories by hand, and checks the rule every open
/// must keep on them: whatever open accepts, the next open accepts too.
enum DamagedJournal {
  static let directory = JournalTestSupport.directory

  /// The path of a file of the journal.
  static func path(_ name: String) -> String { directory + "/" + name }

  /// The path of the segment starting at `first`.
  static func segment(_ first: UInt64, _ kind: JournalFileNames.SegmentKind) -> String {
    path(JournalFileNames.segment(first: first, kind: kind))
  }

  /// The frames of a `.log` segment holding `sequences` (payloads as the tests append them),
  /// with no sync marker.
  static func logSegment(_ sequences: [UInt64]) -> [UInt8] {
    var bytes: [UInt8] = []
    for sequence in sequences {
      JournalFrame.appendRecord(
        sequence: sequence, payload: JournalTestSupport.payload(sequence), to: &bytes)
    }
    return bytes
  }

  /// A valid `.zst` segment starting at `first` holding `sequences` (none: an empty one, as
  /// compressing a segment without records writes it).
  static func compressedSegment(first: UInt64, _ sequences: [UInt64]) throws -> [UInt8] {
    var bytes = JournalCompressedSegment.header(segmentFirst: first)
    if !sequences.isEmpty {
      var encoder = JournalRecordBlock.Encoder()
      for sequence in sequences {
        JournalTestSupport.payload(sequence).withUnsafeBytes {
          encoder.append(sequence: sequence, payload: $0)
        }
      }
      bytes += try JournalCompressedSegment.dataBlock(
        encoder, level: 1, compressor: Zstd.Compressor())
    }
    bytes += JournalCompressedSegment.trailer(
      records: UInt64(sequences.count), lastSequence: sequences.last ?? 0)
    return bytes
  }

  /// A checkpoint file with low-water mark `lowWater` and no snapshot.
  static func checkpoint(lowWater: UInt64) -> [UInt8] {
    JournalCheckpoint.lowWater(lowWater).encoded()
  }

  /// The names of the journal's segment files on `disk`, sorted.
  static func segmentNames(on disk: SimulatedFileSystem) -> [String] {
    disk.allPaths().filter { $0.hasPrefix(directory + "/journal-") }.map {
      String($0.dropFirst(directory.count + 1))
    }.filter { JournalFileNames.parseSegment($0) != nil }
  }

  /// What a first open did.
  enum Outcome: Sendable {
    /// It refused (at open, or at the first read), with this error.
    case refused(StoreError)
    /// It accepted the journal and returned these records; the next opens returned them too,
    /// and the one appended.
    case kept([JournalRecord])

    var refusal: StoreError? {
      if case .refused(let error) = self { return error }
      return nil
    }

    var records: [JournalRecord]? {
      if case .kept(let records) = self { return records }
      return nil
    }
  }

  /// The payload the check appends.
  static let appended: [UInt8] = Array("appended".utf8)

  /// Opens the journal on `disk` and reads it, appends a record durably, closes, and opens
  /// again, both the disk as the close left it and the disk as a power cut right after the
  /// append would have left it: each reopen must return exactly the records the first open
  /// returned, and the appended one. Otherwise throws ``JournalCheckFailure``.
  ///
  /// A refusal of the first open, or of its read, must be typed (``StoreError``).
  static func openAppendReopen(_ disk: SimulatedFileSystem, options: JournalOptions) throws
    -> Outcome
  {
    let journal: Journal
    do {
      journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    } catch {
      return .refused(error)
    }
    let first: [JournalRecord]
    do {
      first = try journal.records()
    } catch {
      try? journal.close()
      return .refused(error)
    }
    let sequence: UInt64
    let expected: [JournalRecord]
    do {
      try checkReadsFrom(journal, agreeWith: first)
      sequence = try journal.append(appended, durable: true)
      expected = first + [JournalRecord(sequence: sequence, payload: appended)]
      let now = try journal.records()
      guard now == expected else {
        throw JournalCheckFailure(
          "open accepted \(first.map(\.sequence)) and appended \(sequence); a read then "
            + "returned \(now.map(\.sequence))")
      }
      try checkReadsFrom(journal, agreeWith: expected)
    } catch {
      try? journal.close()
      throw JournalCheckFailure("after an accepting open: \(error)")
    }
    let powerCut = disk.crashedDurableOnly()
    do {
      try journal.close()
    } catch {
      throw JournalCheckFailure("the close after an accepting open failed: \(error)")
    }
    for (image, when) in [(disk, "after the close"), (powerCut, "after a power cut")] {
      let again: [JournalRecord]
      do {
        let reopened = try Journal.open(directory: directory, fileSystem: image, options: options)
        defer { try? reopened.close() }
        again = try reopened.records()
        try checkReadsFrom(reopened, agreeWith: again)
      } catch {
        throw JournalCheckFailure(
          "open accepted \(first.map(\.sequence)) and appended \(sequence); the reopen "
            + "\(when) failed: \(error)")
      }
      guard again == expected else {
        throw JournalCheckFailure(
          "open accepted \(first.map(\.sequence)) and appended \(sequence); the reopen "
            + "\(when) returned \(again.map(\.sequence))")
      }
    }
    return .kept(first)
  }

  /// A read from any sequence returns exactly the records of a whole read from there on.
  static func checkReadsFrom(_ journal: Journal, agreeWith all: [JournalRecord]) throws {
    for record in all {
      let from = try journal.records(from: record.sequence)
      guard from == all.filter({ $0.sequence >= record.sequence }) else {
        throw JournalCheckFailure(
          "a read from \(record.sequence) returned \(from.map(\.sequence)) of "
            + "\(all.map(\.sequence))")
      }
    }
  }
}
