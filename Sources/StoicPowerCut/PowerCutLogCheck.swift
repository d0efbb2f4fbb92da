import StoicStore
import StoicTelemetry

/// The check of a log spool after a cut, shared by the telemetry workloads: every record read
/// back is intact (the one its metadata names, see ``PowerCutLogRecord``) and in order, and
/// every record claimed durable is there, at its sequence.
enum PowerCutLogCheck {
  /// What the spool holds: the workloads' records by sequence, and the highest sequence.
  struct Found {
    var records: [UInt64: (appender: Int, counter: Int)] = [:]
    var lastSequence: UInt64 = 0
    var others = 0
  }

  /// Reads every record of `logs` and checks it against `acknowledgements` into `verdict`.
  /// Claimed records whose counter is in `released` may be gone: they left the spool after
  /// they were delivered (the forwarder's release).
  static func check(
    _ logs: LogSpool, _ acknowledgements: PowerCutAcknowledgements, released: Set<Int> = [],
    into verdict: inout PowerCutVerdict
  ) throws(StoreError) -> Found {
    var found = Found()
    var sequences: [UInt64] = []
    var lastCounter: [Int: Int] = [:]
    var issues: [String] = []
    let summary = try logs.forEachRecord { entry in
      sequences.append(entry.sequence)
      found.lastSequence = max(found.lastSequence, entry.sequence)
      guard let record = entry.record else { return }
      switch PowerCutLogRecord.identify(record) {
      case .other:
        found.others += 1
      case .mixed:
        issues.append("the record at \(entry.sequence) is not intact (a mix or torn)")
      case .app(let appender, let counter):
        found.records[entry.sequence] = (appender, counter)
        if let previous = lastCounter[appender], previous >= counter {
          issues.append(
            "record \(appender)/\(counter) at \(entry.sequence) follows \(appender)/\(previous)")
        }
        lastCounter[appender] = counter
      }
    }
    for issue in issues { verdict.add(issue) }
    verdict.require(summary.unreadable == 0, "\(summary.unreadable) records are unreadable")
    verdict.require(
      zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 },
      "the records' sequences are not in order")
    let low = logs.lowWaterMark
    // Everything through the last durable-through claim is there, without a gap.
    let flushed = acknowledgements.flushedThrough
    if flushed > low {
      verdict.require(
        found.lastSequence >= flushed,
        "durable through \(flushed) was claimed and the spool ends at \(found.lastSequence)")
      var expected = low + 1
      for sequence in sequences where sequence > low {
        if sequence > flushed { break }
        verdict.require(
          sequence == expected,
          "records \(expected)…\(sequence - 1) were claimed durable and are gone")
        expected = sequence + 1
      }
    }
    for (sequence, written) in acknowledgements.logRecords.sorted(by: { $0.key < $1.key }) {
      let claimed = written.durable || sequence <= flushed
      let name = "record \(written.appender)/\(written.counter) at \(sequence)"
      if let held = found.records[sequence] {
        verdict.require(
          held.appender == written.appender && held.counter == written.counter,
          "\(name) is \(held.appender)/\(held.counter) after recovery")
      } else if claimed && sequence > low && !released.contains(written.counter) {
        verdict.add("\(name) was claimed durable and is gone")
      } else if claimed && sequence <= low && !released.contains(written.counter) {
        verdict.add("\(name) was claimed durable and was dropped (low-water mark \(low))")
      }
    }
    return found
  }
}
