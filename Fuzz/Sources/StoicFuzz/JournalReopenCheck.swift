import StoicTesting

@_spi(Testing) @testable import StoicStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What every journal target checks on the directory it built.
///
/// An open either refuses (any ``StoreError``: refusing damaged data is allowed) or returns
/// records whose sequences increase strictly; no crash, memory error, hang or blow-up on the
/// way. And whatever an open accepts, a later open accepts too, with every record (and the
/// snapshot) the first one returned: after the first open and a close, a second open must
/// accept and return the same; `forEachRecord(from:)` must agree with the full read; a record
/// appended durably after the second open must be there, after everything the first
/// returned, when a third open reads.
enum JournalReopenCheck {
  /// The directory every journal target builds its journal in.
  static let directory = "/fuzz/journal"

  /// Options chosen by the input: salvage on or off, mapped or positional appends, small
  /// segments so that an append can roll; no background work, so a run is deterministic.
  static func options(flags: UInt8) -> JournalOptions {
    var options = JournalOptions(
      syncPolicy: .always, maxRecordSize: 4096, segmentSize: 1024, readWindow: 256,
      compressSealedSegments: flags & 4 != 0, salvage: flags & 1 != 0,
      backgroundMaintenance: false, mappedAppends: flags & 2 != 0)
    options.zeroAheadBytes = 512
    if mutation == "noTailTruncation" { options.mutations = [.noTailTruncation] }
    return options
  }

  /// `STOIC_FUZZ_JOURNAL_MUTATION=noTailTruncation` opens every journal with that deliberate
  /// defect of the crash suite's mutation tests (open keeps a torn tail and appends after it),
  /// to show that the journal targets' checks catch a broken recovery.
  static let mutation: String? = getenv("STOIC_FUZZ_JOURNAL_MUTATION").map { String(cString: $0) }

  /// What an open returned.
  struct Contents: Equatable {
    var snapshot: JournalSnapshot?
    var records: [JournalRecord]
  }

  static func run(_ disk: SimulatedFileSystem, options: JournalOptions) {
    FuzzLog.note("salvage \(options.salvage), mapped \(options.mappedAppends); \(listing(disk))")
    let first: Contents
    do throws(StoreError) {
      let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
      defer { try? journal.close() }
      guard let read = contents(of: journal) else { return }
      first = read
      var last: UInt64 = 0
      for record in first.records {
        FuzzCheck.require(record.sequence > last, "sequence \(record.sequence) after \(last)")
        last = record.sequence
      }
      if let middle = first.records.dropFirst().first {
        let from = try? journal.records(from: middle.sequence)
        FuzzCheck.require(
          from == nil || from! == Array(first.records.dropFirst()),
          "forEachRecord(from: \(middle.sequence)) returned \(summary(from ?? [])), "
            + "the full read \(summary(first.records))")
      }
      try journal.close()
    } catch {
      FuzzLog.note("open refused: \(error)")
      return
    }
    FuzzLog.note("open returned \(summary(first.records)); closed: \(listing(disk))")

    let second = reopen(disk, options: options, expecting: first, step: "a reopen")
    let payload = Array("appended after open".utf8)
    let sequence: UInt64
    do throws(StoreError) {
      sequence = try second.append(payload, durable: true)
      try second.close()
    } catch {
      // An append may be refused (a full sequence space); nothing was acknowledged.
      try? second.close()
      return
    }
    FuzzLog.note("appended \(sequence) after a reopen; closed: \(listing(disk))")
    var expected = first
    expected.records.append(JournalRecord(sequence: sequence, payload: payload))
    let third = reopen(
      disk, options: options, expecting: expected, step: "the reopen after an append")
    try? third.close()
  }

  /// Opens again; stops the process unless the open accepts and returns `expected`.
  static func reopen(
    _ disk: SimulatedFileSystem, options: JournalOptions, expecting expected: Contents,
    step: String
  ) -> Journal {
    let journal: Journal
    do throws(StoreError) {
      journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    } catch {
      FuzzCheck.fail("\(step) refused what an open accepted: \(error)")
    }
    guard let found = contents(of: journal) else {
      FuzzCheck.fail("\(step) cannot read what an open read")
    }
    FuzzCheck.require(
      found == expected,
      "\(step) returned snapshot \(String(describing: found.snapshot?.sequence)) and "
        + "\(summary(found.records)), the open before it snapshot "
        + "\(String(describing: expected.snapshot?.sequence)) and \(summary(expected.records))")
    return journal
  }

  /// The snapshot and every record, or nil when the read fails.
  static func contents(of journal: Journal) -> Contents? {
    do throws(StoreError) {
      return Contents(snapshot: try journal.snapshot(), records: try journal.records())
    } catch {
      return nil
    }
  }

  /// The journal directory's files and their sizes.
  static func listing(_ disk: SimulatedFileSystem) -> String {
    let names = (try? disk.list(directory)) ?? []
    return names.map { "\($0) (\(disk.contents(StorePath.join(directory, $0))?.count ?? 0) B)" }
      .joined(separator: ", ")
  }

  /// `N records [first...last]`.
  static func summary(_ records: [JournalRecord]) -> String {
    guard let first = records.first, let last = records.last else { return "0 records" }
    return "\(records.count) records [\(first.sequence)...\(last.sequence)]"
  }
}
