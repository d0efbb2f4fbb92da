#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The acknowledgement file: what a workload's library calls claimed durable, one
/// ``PowerCutClaim`` per line, in the order the calls returned.
///
/// The workload appends each line with one `write(2)` on a descriptor opened with `O_APPEND`,
/// so lines from several threads never interleave, and a stopped workload leaves whole lines
/// (a last line without its newline is ignored). The file lives outside the mount: it is
/// never part of the disk image a cut copies.
package struct PowerCutAcknowledgements: Sendable {
  /// The claims, in file order.
  package let claims: [PowerCutClaim]

  /// Parses the text of an acknowledgement file; lines that do not parse are skipped (the
  /// last one may be cut short).
  package init(text: String) {
    var claims: [PowerCutClaim] = []
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    // The part after the last newline is a line still being written.
    for line in lines.dropLast() {
      if let claim = PowerCutClaim(line: line) { claims.append(claim) }
    }
    self.claims = claims
  }

  /// Reads the file at `path`; a missing file holds no claims.
  package init(path: String) {
    self.init(text: PowerCutHost.readText(path) ?? "")
  }

  /// Every journal record claimed durable, by sequence.
  package var records: [UInt64: (appender: Int, counter: Int)] {
    var records: [UInt64: (appender: Int, counter: Int)] = [:]
    for case .record(let sequence, let appender, let counter) in claims {
      records[sequence] = (appender, counter)
    }
    return records
  }

  /// The highest sequence claimed durable, by a record or a durable-through claim (0: none).
  package var durableThrough: UInt64 {
    var highest: UInt64 = 0
    for claim in claims {
      switch claim {
      case .record(let sequence, _, _), .durableThrough(let sequence):
        highest = max(highest, sequence)
      default: break
      }
    }
    return highest
  }

  /// The highest sequence a durable snapshot or drop covers (0: none).
  package var droppedThrough: UInt64 {
    var highest: UInt64 = 0
    for claim in claims {
      switch claim {
      case .snapshot(let sequence), .dropped(let sequence): highest = max(highest, sequence)
      default: break
      }
    }
    return highest
  }

  /// The highest sequence a durable snapshot covers (0: none).
  package var snapshotThrough: UInt64 {
    var highest: UInt64 = 0
    for case .snapshot(let sequence) in claims { highest = max(highest, sequence) }
    return highest
  }

  /// The outbox keys claimed enqueued, in order.
  package var enqueued: [String] {
    claims.compactMap { if case .enqueued(let key) = $0 { key } else { nil } }
  }

  /// The outbox keys claimed retired.
  package var retired: Set<String> {
    Set(claims.compactMap { if case .retired(let key) = $0 { key } else { nil } })
  }

  /// The last generation claimed written (0: none).
  package var generation: Int {
    var last = 0
    for case .generation(let generation) in claims { last = max(last, generation) }
    return last
  }

  /// Every log record handed to a spool, by sequence: its writer, its counter, and whether its
  /// call claimed it durable (a record at the durable level) or only written.
  package var logRecords: [UInt64: (appender: Int, counter: Int, durable: Bool)] {
    var records: [UInt64: (appender: Int, counter: Int, durable: Bool)] = [:]
    for claim in claims {
      switch claim {
      case .record(let sequence, let appender, let counter):
        records[sequence] = (appender, counter, true)
      case .written(let sequence, let appender, let counter):
        records[sequence] = (appender, counter, false)
      default: break
      }
    }
    return records
  }

  /// The highest sequence a durable-through claim covers, records' own claims not counted
  /// (0: none).
  package var flushedThrough: UInt64 {
    var highest: UInt64 = 0
    for case .durableThrough(let sequence) in claims { highest = max(highest, sequence) }
    return highest
  }

  /// The last metrics round claimed flushed (0: none).
  package var metricsRound: Int {
    var last = 0
    for case .metricsRound(let round) in claims { last = max(last, round) }
    return last
  }

  /// The batches the receiver stored, by key, with the records each held.
  package var deliveries: [String: [Int]] {
    var deliveries: [String: [Int]] = [:]
    for case .delivered(let key, let counters) in claims { deliveries[key] = counters }
    return deliveries
  }

  /// How many claims the file holds.
  package var count: Int { claims.count }
}

/// Appends claims to an acknowledgement file, one `write(2)` per line (see
/// ``PowerCutAcknowledgements``). Safe to share between threads.
package final class PowerCutAcknowledgementWriter: Sendable {
  private let descriptor: Int32

  /// Opens (creating) the file at `path` for appending.
  package init(path: String) throws(PowerCutError) {
    descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw PowerCutError("cannot open the acknowledgement file \(path): errno \(errno)")
    }
  }

  deinit { close(descriptor) }

  /// Appends `claim` as one line, after the call it describes has returned.
  package func claim(_ claim: PowerCutClaim) throws(PowerCutError) {
    let line = Array((claim.line + "\n").utf8)
    let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == line.count else {
      throw PowerCutError("cannot append to the acknowledgement file: errno \(errno)")
    }
  }
}
