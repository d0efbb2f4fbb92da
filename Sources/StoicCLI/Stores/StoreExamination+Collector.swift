import StoicCollector
import StoicForwarding
import StoicStore

/// The example collector's store in `stoic inspect` (the table and `--json`) and in `verify`'s
/// summary. Keys, producers and messages came over the network: they are escaped like the
/// text of records (`TerminalText/escaped(_:)`) before they reach a table.
extension StoreExamination {
  /// How many batches the table lists (`--json` lists every one).
  static let collectorBatchesShown = 20

  /// `12 batches (10 logs, 2 metrics), 400 log records, 2 data points, 3 duplicates
  /// suppressed, 0 key conflicts, 0 unreadable`.
  static func describe(_ collector: CollectorExamination) -> String {
    let stats = collector.stats
    return count(stats.batches, "batch", plural: "batches")
      + " (\(stats.logBatches) logs, \(stats.metricBatches) metrics), "
      + count(stats.logRecords, "log record") + ", " + count(stats.dataPoints, "data point")
      + ", \(stats.duplicatesSuppressed) duplicates suppressed, "
      + count(stats.keyConflicts, "key conflict") + ", \(stats.unreadableEntries) unreadable"
  }

  /// The collector's part of `stoic inspect`: its counts (those `/stats` rebuilds at start),
  /// the producers, the batches stored (key, producers, records, replays) and the conflicts.
  func collectorLines(_ collector: CollectorExamination, style: Style) -> [String] {
    var lines = ["  " + "collector".padding(12) + Self.describe(collector)]
    if !collector.producers.isEmpty {
      var table = TextTable([
        ("PRODUCER", .left), ("BATCHES", .right), ("LOG RECORDS", .right),
        ("DATA POINTS", .right), ("DUPLICATES", .right),
      ])
      for (name, counts) in collector.producers {
        table.add([
          TerminalText.escaped(name), String(counts.batches), String(counts.logRecords),
          String(counts.dataPoints), String(counts.duplicatesSuppressed),
        ])
      }
      lines.append("")
      lines += table.render(style: style, indent: 2)
    }
    if !collector.batches.isEmpty {
      var table = TextTable([
        ("SEQUENCE", .right), ("SIGNAL", .left), ("KEY", .left), ("STATUS", .right),
        ("RECORDS", .right), ("BYTES", .right), ("REPLAYS", .right), ("PRODUCERS", .left),
      ])
      for stored in collector.batches.prefix(Self.collectorBatchesShown) {
        let batch = stored.batch
        let producers = batch.producers.map { "\(TerminalText.escaped($0.name)) \($0.records)" }
        table.add([
          TextTable.Cell(String(stored.sequence)), TextTable.Cell(batch.signal.rawValue),
          batch.key.isEmpty
            ? TextTable.Cell("(none)", .dim) : TextTable.Cell(TerminalText.escaped(batch.key)),
          TextTable.Cell(String(batch.status)), TextTable.Cell(String(batch.recordCount)),
          TextTable.Cell(
            ByteCount.describe(UInt64(stored.bytes))
              + (batch.bodyCompression == .none ? "" : " " + batch.bodyCompression.contentEncoding)),
          TextTable.Cell(String(stored.duplicates)),
          TextTable.Cell(producers.joined(separator: ", ")),
        ])
      }
      lines.append("")
      lines += table.render(style: style, indent: 2)
      if collector.batches.count > Self.collectorBatchesShown {
        lines.append(
          "  … and \(collector.batches.count - Self.collectorBatchesShown) more "
            + "(--json lists every batch)")
      }
    }
    if !collector.conflicts.isEmpty {
      var table = TextTable([("SEQUENCE", .right), ("SIGNAL", .left), ("CONFLICT ON KEY", .left)])
      for conflict in collector.conflicts {
        table.add([
          TextTable.Cell(String(conflict.sequence)), TextTable.Cell(conflict.signal.rawValue),
          TextTable.Cell(TerminalText.escaped(conflict.key), .yellow),
        ])
      }
      lines.append("")
      lines += table.render(style: style, indent: 2)
    }
    return lines
  }

  /// `{"stats", "batches", "conflicts", "unreadable"}`: `stats` as `/stats` has the stored
  /// counts, every batch with its key, producers and replays.
  static func collectorJSON(_ collector: CollectorExamination) -> JSONValue {
    let stats = collector.stats
    let producers = collector.producers.map { name, counts -> (String, JSONValue) in
      (
        name,
        .object([
          ("batches", .int(Int64(counts.batches))), ("logRecords", .int(Int64(counts.logRecords))),
          ("dataPoints", .int(Int64(counts.dataPoints))),
          ("duplicatesSuppressed", .int(Int64(counts.duplicatesSuppressed))),
        ])
      )
    }
    let batches = collector.batches.map { stored -> JSONValue in
      let batch = stored.batch
      return .object([
        ("sequence", .unsigned(stored.sequence)), ("signal", .string(batch.signal.rawValue)),
        ("key", batch.key.isEmpty ? .null : .string(batch.key)),
        ("status", .int(Int64(batch.status))), ("rejected", .int(batch.rejected)),
        ("message", .string(batch.message)), ("records", .int(Int64(batch.recordCount))),
        ("bytes", .int(Int64(stored.bytes))), ("gzip", .bool(batch.bodyIsGzip)),
        ("compression", .string(batch.bodyCompression.contentEncoding)),
        ("replays", .int(Int64(stored.duplicates))),
        (
          "producers",
          .array(
            batch.producers.map {
              .object([("name", .string($0.name)), ("records", .int(Int64($0.records)))])
            })
        ),
      ])
    }
    let conflicts = collector.conflicts.map { conflict -> JSONValue in
      .object([
        ("sequence", .unsigned(conflict.sequence)), ("signal", .string(conflict.signal.rawValue)),
        ("key", .string(conflict.key)),
      ])
    }
    return .object([
      (
        "stats",
        .object([
          ("batches", .int(Int64(stats.batches))), ("logBatches", .int(Int64(stats.logBatches))),
          ("metricBatches", .int(Int64(stats.metricBatches))),
          ("logRecords", .int(Int64(stats.logRecords))),
          ("dataPoints", .int(Int64(stats.dataPoints))),
          ("duplicatesSuppressed", .int(Int64(stats.duplicatesSuppressed))),
          ("keyConflicts", .int(Int64(stats.keyConflicts))),
          ("unreadableEntries", .int(Int64(stats.unreadableEntries))),
          ("producers", .object(producers)),
        ])
      ),
      ("batches", .array(batches)), ("conflicts", .array(conflicts)),
      ("unreadable", .array(collector.unreadable.map(JSONValue.unsigned))),
    ])
  }
}
