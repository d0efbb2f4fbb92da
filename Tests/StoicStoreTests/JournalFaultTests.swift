import Testing

@testable import StoicStore
@testable import StoicTesting

/// Injected faults: a full disk mid-batch, EIO on sync, garbage in a pending write, bit rot in
/// durable data, a damaged compressed block.
@Suite("Journal under faults")
struct JournalFaultTests {
  typealias Support = JournalTestSupport
  let directory = JournalTestSupport.directory

  @Test("ENOSPC in the middle of a batch rolls back; the next append follows the last good one")
  func noSpaceMidBatch() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(
      directory: directory, fileSystem: disk, options: JournalOptions(mappedAppends: false))
    try journal.append(Support.payload(1))
    guard let segment = Support.activeSegment(on: disk) else {
      Issue.record("no segment")
      return
    }
    let goodSize = disk.contents(segment)?.count ?? 0
    disk.inject(.noSpaceOnWrite(nth: 1, partialBytes: 30))
    do {
      try journal.append(batch: (2...4).map(Support.payload))
      Issue.record("the batch succeeded on a full disk")
    } catch {
      #expect(error.code == .diskFull)
    }
    #expect(disk.contents(segment)?.count == goodSize)
    #expect(journal.lastSequence == 1)
    disk.clearFaults()
    #expect(try journal.append(Support.payload(2)) == 2)
    try journal.close()
    let records = try Journal.open(directory: directory, fileSystem: disk.crashedDurableOnly())
      .records()
    #expect(records.map(\.sequence) == [1, 2])
    #expect(records.map(\.payload) == [Support.payload(1), Support.payload(2)])
  }

  @Test("ENOSPC mid-batch at every crash point: never a partial record, never a gap")
  func noSpaceMidBatchCrashes() {
    let failed: [UInt8] = [9, 9, 9, 9]
    let report = CrashExplorer(budget: Support.budget(crashRecovery: false)).explore(
      setup: { disk in try JournalCrashTests.prepare(disk, 1...1) },
      operation: { disk, recorder in
        let journal = try Journal.open(
          directory: directory, fileSystem: disk, options: JournalOptions(mappedAppends: false))
        // 20 bytes land: exactly the first frame of the batch, a valid record on its own.
        disk.inject(.noSpaceOnWrite(nth: 1, partialBytes: 20))
        if (try? journal.append(batch: [failed, [8, 8, 8, 8, 8]])) != nil {
          throw JournalCheckFailure("the batch succeeded on a full disk")
        }
        disk.clearFaults()
        recorder.acknowledge("rolled back")
        for sequence in 2...3 as ClosedRange<UInt64> {
          _ = try journal.append(Support.payload(sequence))
          recorder.acknowledge(String(sequence))
        }
        try journal.close()
      },
      recover: { disk in try Support.recover(disk, options: JournalOptions()) },
      check: { recovered, context in
        // While the failed append is in flight its first record may survive; once it has
        // thrown (rolled back durably), it must never reappear.
        let rolledBack = context.acknowledged.contains("rolled back")
        try Support.check(recovered, context, attempted: [1, 2, 3]) { record in
          record.payload == Support.payload(record.sequence)
            || (!rolledBack && record.sequence == 2 && record.payload == failed)
        }
      })
    #expect(report.passed, "\(report)")
    #expect(report.operationError == nil, "\(report)")
  }

  @Test("EIO on sync poisons the journal until it is reopened")
  func ioErrorOnSyncPoisons() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(directory: directory, fileSystem: disk)
    try journal.append(Support.payload(1))
    disk.inject(.ioErrorOnSync(nth: 1))
    do {
      try journal.append(Support.payload(2))
      Issue.record("append returned although its sync failed")
    } catch {
      #expect(error.code == .io)
    }
    #expect(journal.isPoisoned)
    do {
      try journal.append(Support.payload(3))
      Issue.record("a poisoned journal accepted an append")
    } catch {
      #expect(error.code == .poisoned)
    }
    do {
      try journal.sync()
      Issue.record("a poisoned journal synced")
    } catch {
      #expect(error.code == .poisoned)
    }
    #expect(throws: StoreError.self) { try journal.close() }
    disk.clearFaults()
    let reopened = try Journal.open(directory: directory, fileSystem: disk)
    defer { try? reopened.close() }
    #expect(!reopened.isPoisoned)
    #expect(try reopened.records().map(\.sequence) == [1])
    #expect(try reopened.append(Support.payload(2)) == 2)
  }

  @Test("garbage from a pending write, even with a valid frame after it, is a torn tail: cut")
  func garbageThenValidFrameIsTornTail() throws {
    let disk = SimulatedFileSystem()
    let events = JournalEventLog()
    try JournalCrashTests.prepare(disk, 1...3)
    guard let segment = Support.activeSegment(on: disk), let bytes = disk.contents(segment) else {
      Issue.record("no segment")
      return
    }
    // A crash kept a later pending write (record 5) but garbled the earlier one (record 4).
    var later: [UInt8] = []
    JournalFrame.appendRecord(sequence: 5, payload: Support.payload(5), to: &later)
    let garbage: [UInt8] = (0..<27).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
    disk.setDurableContents(segment, bytes + garbage + later)
    let journal = try Journal.open(directory: directory, fileSystem: disk, events: events.sink)
    defer { try? journal.close() }
    #expect(try journal.records().map(\.sequence) == [1, 2, 3])
    #expect(journal.recovery.truncatedBytes == UInt64(garbage.count + later.count))
    let cut = events.named(StoreEvents.journalTruncated.name)
    #expect(cut.count == 1)
    #expect(cut.first?["droppedBytes"] == String(garbage.count + later.count))
    #expect(events.named(StoreEvents.journalCorruptionDetected.name).isEmpty)
    #expect(try journal.append(Support.payload(4)) == 4)
  }

  @Test("a bit flip in an old record followed by valid ones is refused with where and how much")
  func bitFlipRefused() throws {
    let disk = SimulatedFileSystem()
    let events = JournalEventLog()
    try JournalCrashTests.prepare(disk, 1...6)
    try JournalCrashTests.flipPayloadByte(of: 3, on: disk)
    let before = disk.allPaths().map { disk.contents($0) }
    do {
      _ = try Journal.open(directory: directory, fileSystem: disk, events: events.sink)
      Issue.record("open accepted a journal with damaged durable data")
    } catch {
      #expect(error.code == .corrupt)
      let damage = try #require(error.cause as? JournalDamage)
      #expect(damage.offset > 0)
      let frame = JournalFrame.recordSize(payloadCount: Support.payload(3).count)
      #expect(damage.length == UInt64(frame))
      #expect(error.message.contains("offset \(damage.offset)"))
    }
    let detected = events.named(StoreEvents.journalCorruptionDetected.name)
    #expect(detected.count == 1)
    #expect(detected.first?["length"] != nil)
    // Nothing was cut or changed.
    #expect(disk.allPaths().map { disk.contents($0) } == before)
  }

  @Test("salvage keeps every later record, quarantines the damaged bytes and reports them")
  func salvageKeepsLaterRecords() throws {
    let disk = SimulatedFileSystem()
    let events = JournalEventLog()
    try JournalCrashTests.prepare(disk, 1...6)
    try JournalCrashTests.flipPayloadByte(of: 3, on: disk)
    var options = JournalOptions()
    options.salvage = true
    let journal = try Journal.open(
      directory: directory, fileSystem: disk, options: options, events: events.sink)
    #expect(try journal.records().map(\.sequence) == [1, 2, 4, 5, 6])
    #expect(journal.recovery.salvagedRecords == 3)
    let frame = JournalFrame.recordSize(payloadCount: Support.payload(3).count)
    #expect(journal.recovery.quarantinedBytes == UInt64(frame))
    let quarantine = try #require(journal.recovery.quarantinedFiles.first)
    #expect(disk.contents(quarantine)?.count == frame)
    let salvaged = try #require(events.named(StoreEvents.journalSalvaged.name).first)
    #expect(salvaged["keptRecords"] == "3")
    #expect(salvaged["damagedBytes"] == String(frame))
    #expect(try journal.append(Support.payload(7)) == 7)
    try journal.close()
    // After salvage the journal opens cleanly, without salvage.
    let reopened = try Journal.open(directory: directory, fileSystem: disk.crashedDurableOnly())
    defer { try? reopened.close() }
    #expect(try reopened.records().map(\.sequence) == [1, 2, 4, 5, 6, 7])
    #expect(disk.crashedDurableOnly().contents(quarantine)?.count == frame)
  }

  @Test("a damaged compressed block is refused by its checksum, never by the decompressor")
  func damagedCompressedBlock() throws {
    let disk = SimulatedFileSystem()
    let options = Support.smallSegments()
    try JournalCrashTests.prepare(disk, 1...8, options: options)
    let compressed = try #require(disk.allPaths().first { $0.hasSuffix(".zst") })
    let size = try #require(disk.contents(compressed)?.count)
    disk.damage(compressed, at: size - 20, with: [0xAA, 0x55])
    // Its name records its summary: the open does not read it, the read refuses the damage.
    let opened = try Journal.open(directory: directory, fileSystem: disk, options: options)
    let readError = #expect(throws: StoreError.self) { try opened.records() }
    #expect(readError?.code == .corrupt)
    #expect(readError?.message.contains("checksum") == true, "\(String(describing: readError))")
    try opened.close()
    // Under a name of the earlier form, the open checks its trailer and refuses it.
    let earlier = disk.copy()
    try Support.earlierFormNames(on: earlier)
    do {
      _ = try Journal.open(directory: directory, fileSystem: earlier, options: options)
      Issue.record("open accepted a damaged compressed segment")
    } catch {
      #expect(error.code == .corrupt)
      #expect(error.message.contains("checksum") || error.message.contains("trailer"))
    }
    // Salvaging: the open sets aside the segment under the earlier name, the read the one
    // whose name records its summary; the records of the others are read either way.
    var salvaging = options
    salvaging.salvage = true
    for (copy, atOpen) in [(earlier, true), (disk, false)] {
      let events = EventRecorder()
      let journal = try Journal.open(
        directory: directory, fileSystem: copy, options: salvaging, events: events.sink)
      #expect(journal.recovery.quarantinedFiles.count == (atOpen ? 1 : 0))
      let sequences = try journal.records().map(\.sequence)
      #expect(sequences == sequences.sorted())
      #expect(sequences.last == 8)
      #expect(!sequences.isEmpty && sequences.count < 8)
      #expect(copy.allPaths().filter { $0.contains(".zst.corrupt-") }.count == 1)
      let salvaged = events.named(StoreEvents.journalSalvaged.name)
      #expect(salvaged.filter { $0["quarantinedAs"]?.contains(".zst.corrupt-") == true }.count == 1)
      // Set aside once: the next read, and the next open, read the same records.
      #expect(try journal.records().map(\.sequence) == sequences)
      try journal.close()
      let reopened = try Journal.open(directory: directory, fileSystem: copy, options: salvaging)
      #expect(try reopened.records().map(\.sequence) == sequences)
      try reopened.close()
    }
  }

  @Test(
    "a damaged data block of a sealed compressed segment passes open (ends check) and is refused by its checksum when read"
  )
  func damagedCompressedDataBlockRefusedAtRead() throws {
    let disk = SimulatedFileSystem()
    let options = Support.smallSegments()
    try JournalCrashTests.prepare(disk, 1...8, options: options)
    let compressed = try #require(disk.allPaths().first { $0.hasSuffix(".zst") })
    // Inside the first block's stored bytes: past the 20-byte header and 16-byte block header.
    disk.damage(compressed, at: 20 + 16 + 1, with: [0xAA, 0x55])
    let journal = try Journal.open(directory: directory, fileSystem: disk, options: options)
    defer { try? journal.close() }
    do {
      _ = try journal.records()
      Issue.record("a read accepted a damaged compressed block")
    } catch {
      #expect(error.code == .corrupt)
      #expect(error.message.contains("checksum"))
    }
  }

  @Test("a damaged checkpoint is refused, and quarantined by salvage")
  func damagedCheckpoint() throws {
    let disk = SimulatedFileSystem()
    let journal = try Journal.open(directory: directory, fileSystem: disk)
    for sequence in 1...4 as ClosedRange<UInt64> { try journal.append(Support.payload(sequence)) }
    try journal.writeSnapshot(covering: 2, bytes: [1, 2, 3])
    try journal.close()
    let checkpoint = directory + "/" + JournalFileNames.checkpoint
    disk.damage(checkpoint, at: 10, with: [0xFF])
    #expect(throws: StoreError.self) { try Journal.open(directory: directory, fileSystem: disk) }
    var options = JournalOptions()
    options.salvage = true
    let salvaged = try Journal.open(directory: directory, fileSystem: disk, options: options)
    defer { try? salvaged.close() }
    #expect(try salvaged.snapshot() == nil)
    #expect(disk.allPaths().contains { $0.contains("checkpoint.corrupt") })
  }
}
