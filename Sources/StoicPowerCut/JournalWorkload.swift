import Foundation
import StoicStore
import StoicTesting

/// Journal appends from one or more threads under one sync policy, in small segments (so
/// rolls, seals and background compression happen inside the run), optionally with snapshots
/// and drops.
///
/// Claims: an append that returns only once its record is durable (``SyncPolicy/always``,
/// ``SyncPolicy/groupCommit(maxDelay:maxRecords:)``, `durable: true`) claims its record;
/// otherwise each append claims ``Journal/durableSequence`` when it moved. A snapshot or a
/// drop claims its sequence once it returned. The control claims every append, synced or not.
package struct JournalWorkload: PowerCutWorkload {
  package let name: String
  package let summary: String
  /// The journal's sync policy.
  let syncPolicy: SyncPolicy
  /// How many threads append.
  let appenders: Int
  /// Every how many appends (per thread) one is made with `durable: true`.
  let durableEvery: Int?
  /// Whether thread 0 writes snapshots and drops records.
  let compacts: Bool
  /// Whether appends go through the mapping or positional writes.
  let mappedAppends: Bool
  /// The control: every append is claimed durable when it returns.
  let claimsUnsyncedAppends: Bool
  /// The segment size.
  let segmentSize: UInt64

  package var isControl: Bool { claimsUnsyncedAppends }

  /// How many records one thread appends at most, so the volume stays bounded however late
  /// the cut comes.
  static let appendsPerThread = 40_000

  init(
    name: String, summary: String, syncPolicy: SyncPolicy, appenders: Int = 1,
    durableEvery: Int? = nil, compacts: Bool = false, mappedAppends: Bool = true,
    claimsUnsyncedAppends: Bool = false, segmentSize: UInt64 = 64 << 10
  ) {
    self.name = name
    self.summary = summary
    self.syncPolicy = syncPolicy
    self.appenders = appenders
    self.durableEvery = durableEvery
    self.compacts = compacts
    self.mappedAppends = mappedAppends
    self.claimsUnsyncedAppends = claimsUnsyncedAppends
    self.segmentSize = segmentSize
  }

  /// The journal's options: the policy, small segments, compression in the background.
  var options: JournalOptions {
    JournalOptions(
      syncPolicy: syncPolicy, maxRecordSize: 64 << 10, segmentSize: segmentSize,
      mappedAppends: mappedAppends)
  }

  /// Whether an append returns only once its record is durable.
  var appendsWaitForSync: Bool {
    switch syncPolicy {
    case .always, .groupCommit: true
    case .everyRecords, .interval, .never: false
    }
  }

  package func run(
    directory: String, acknowledgements: PowerCutAcknowledgementWriter, seed: UInt64
  ) async throws {
    let journal = try Journal.open(
      directory: StorePath.join(directory, "journal"), fileSystem: PosixFileSystem(),
      options: options)
    try PowerCutAppenders.run(appenders) { appender in
      try append(journal, appender: appender, acknowledgements, seed: seed)
    }
  }

  /// One thread's appends.
  private func append(
    _ journal: Journal, appender: Int, _ acknowledgements: PowerCutAcknowledgementWriter,
    seed: UInt64
  ) throws {
    var random = SplitMix64(seed: SplitMix64.mix(seed, appender))
    // Appends that do not wait for a sync are paced (a pause every 2 to 9 appends), so the
    // volume stays small: a debug build's recovery reads it all.
    let pauseEvery = appendsWaitForSync ? Int.max : 2 + random.below(8)
    var claimedDurable: UInt64 = 0
    for counter in 1...Self.appendsPerThread {
      let durable = durableEvery.map { counter % $0 == 0 } ?? false
      let payload = PowerCutPayload.record(appender: appender, counter: counter)
      let sequence = try journal.append(payload, durable: durable)
      if appendsWaitForSync || durable || claimsUnsyncedAppends {
        try acknowledgements.claim(
          .record(sequence: sequence, appender: appender, counter: counter))
      } else {
        let durableSequence = journal.durableSequence
        if durableSequence > claimedDurable {
          try acknowledgements.claim(.durableThrough(durableSequence))
          claimedDurable = durableSequence
        }
      }
      if compacts && appender == 0 {
        if counter % 37 == 0 {
          try journal.writeSnapshot(
            covering: sequence, bytes: PowerCutPayload.snapshot(through: sequence))
          try acknowledgements.claim(.snapshot(sequence))
        } else if counter % 23 == 0 {
          let through = sequence - min(sequence, 3)
          try journal.dropThrough(through)
          try acknowledgements.claim(.dropped(through))
        }
      }
      if counter % pauseEvery == 0 { PowerCutHost.sleep(milliseconds: 1) }
    }
  }

  package func verify(directory: String, acknowledgements: PowerCutAcknowledgements) async
    -> PowerCutVerdict
  {
    var verdict = PowerCutVerdict()
    let path = StorePath.join(directory, "journal")
    do {
      let journal = try Journal.open(
        directory: path, fileSystem: PosixFileSystem(), options: options)
      let last = try check(journal, acknowledgements, &verdict)
      // The store accepts a write, and keeps it across another reopen.
      let extra = PowerCutPayload.record(appender: 9999, counter: 1)
      let sequence = try journal.append(extra, durable: true)
      try journal.close()
      verdict.require(sequence > last, "the write after recovery got sequence \(sequence)")
      let reopened = try Journal.open(
        directory: path, fileSystem: PosixFileSystem(), options: options)
      let written = try reopened.records(from: sequence)
      try reopened.close()
      verdict.require(
        written.map(\.sequence) == [sequence] && written.first?.payload == extra,
        "the record written after recovery was not read back after a reopen")
    } catch {
      verdict.add("recovery failed: \(error)")
    }
    return verdict
  }

  /// Checks the recovered journal against the claims; returns its last sequence.
  private func check(
    _ journal: Journal, _ acknowledgements: PowerCutAcknowledgements,
    _ verdict: inout PowerCutVerdict
  ) throws -> UInt64 {
    let lowWater = journal.lowWaterMark
    let records = try journal.records()
    var found: [UInt64: (appender: Int, counter: Int)] = [:]
    var lastCounter: [Int: Int] = [:]
    var expected = lowWater + 1
    for record in records {
      verdict.require(
        record.sequence == expected,
        "record \(record.sequence) follows \(expected - 1): a gap or a repeat")
      expected = record.sequence + 1
      guard let header = PowerCutPayload.decode(record.payload, as: .record) else {
        verdict.add("record \(record.sequence) is not intact (a mix or torn)")
        continue
      }
      let appender = Int(header.first)
      let counter = Int(header.second)
      if let previous = lastCounter[appender] {
        verdict.require(
          counter == previous + 1,
          "record \(record.sequence) is appender \(appender)'s \(counter)-th, after its "
            + "\(previous)-th: out of order or a hole")
      }
      lastCounter[appender] = counter
      found[record.sequence] = (appender, counter)
    }
    let last = records.last?.sequence ?? lowWater
    let claimed = acknowledgements.records
    for sequence in claimed.keys.sorted() where sequence > lowWater {
      guard let claim = claimed[sequence] else { continue }
      guard let got = found[sequence] else {
        verdict.add(
          "record \(sequence) was claimed durable and is missing (recovered \(lowWater + 1)"
            + "...\(last))")
        continue
      }
      verdict.require(
        got == claim,
        "record \(sequence) holds appender \(got.appender)'s \(got.counter)-th, claimed "
          + "appender \(claim.appender)'s \(claim.counter)-th")
    }
    let durable = acknowledgements.durableThrough
    verdict.require(
      last >= durable, "records through \(durable) were claimed durable; recovery ends at \(last)")
    let dropped = acknowledgements.droppedThrough
    verdict.require(
      lowWater >= dropped,
      "a drop through \(dropped) was claimed; the low-water mark is \(lowWater)")
    let snapshot = try journal.snapshot()
    if let snapshot {
      verdict.require(
        snapshot.bytes == PowerCutPayload.snapshot(through: snapshot.sequence),
        "the snapshot covering \(snapshot.sequence) does not hold its state")
      verdict.require(
        snapshot.sequence <= lowWater,
        "the snapshot covers \(snapshot.sequence), above the low-water mark \(lowWater)")
    }
    let snapshotClaimed = acknowledgements.snapshotThrough
    verdict.require(
      snapshotClaimed == 0 || (snapshot?.sequence ?? 0) >= snapshotClaimed,
      "a snapshot covering \(snapshotClaimed) was claimed; found "
        + "\(snapshot.map { String($0.sequence) } ?? "none")")
    verdict.facts.append(
      "\(records.count) records after low-water \(lowWater), through \(last); "
        + "\(claimed.count) records claimed, durable through \(durable)")
    return last
  }
}
