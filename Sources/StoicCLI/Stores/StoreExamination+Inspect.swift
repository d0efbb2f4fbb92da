import StoicStore

extension StoreExamination {
  /// The lines `stoic inspect` prints: a summary, the segments or generations, the other
  /// files, the outbox's entries, a spool's journals, and (unless `findings` is off: a
  /// spool's journal, whose findings the spool lists) the findings.
  func inspectionLines(style: Style, utc: Bool, findings showFindings: Bool = true) -> [String] {
    var lines = [style(location.path, .bold) + "  " + location.kind.rawValue]
    func field(_ name: String, _ value: String) {
      lines.append("  " + name.padding(12) + value)
    }
    if let lock {
      field("lock", lock.isHeld ? style(lock.description, .yellow) : lock.description)
    }
    if let journal {
      if let refusal = journal.refusal {
        field("status", style("refused by the library: ", .red) + refusal)
      }
      var records = "\(journal.records)"
      if let range = journal.sequences {
        records += " (sequences \(range.lowerBound)…\(range.upperBound))"
      }
      field("records", records + "; last sequence handed out \(journal.lastSequence)")
      var lowWater = "\(journal.lowWaterMark)"
      if let snapshot = journal.snapshot {
        lowWater +=
          " (snapshot through \(snapshot.sequence), \(ByteCount.describe(UInt64(snapshot.bytes))))"
      } else if journal.lowWaterMark == 0 {
        lowWater += " (nothing dropped)"
      }
      field("low-water", lowWater)
      let states = Dictionary(grouping: journal.segments, by: \.state)
      let described = [
        JournalExamination.State.active, .sealed, .compressed, .damaged, .removedAtOpen,
      ]
      .compactMap { state in states[state].map { "\($0.count) \(state.rawValue)" } }
      let total = journal.files.reduce(UInt64(0)) { $0 + $1.status.size }
      field(
        "on disk",
        Self.count(journal.segments.count, "segment")
          + (described.isEmpty ? "" : " (" + described.joined(separator: ", ") + ")")
          + ", \(ByteCount.describe(total)) in all")
      lines.append("")
      lines += segmentTable(journal, style: style, utc: utc)
      let others = journal.files.filter { $0.role != .segment }
      if !others.isEmpty {
        lines.append("")
        lines += fileTable(others, style: style, utc: utc)
      }
      if !journal.changes.isEmpty {
        lines.append("")
        lines.append("  the library's next open would:")
        lines += journal.changes.map { "    " + $0 }
      }
    }
    if let outbox {
      lines.append("")
      lines += outboxLines(outbox, style: style, utc: utc)
    }
    if let collector {
      lines.append("")
      lines += collectorLines(collector, style: style)
    }
    if let atomicFile {
      lines += atomicFileLines(atomicFile, style: style, utc: utc)
    }
    if let spool {
      lines += spoolLines(spool, style: style, utc: utc)
    }
    if let failure {
      lines.append("")
      lines.append(style("could not read: ", .red) + failure.message)
    }
    let findingLines = showFindings ? findingLines(style: style) : []
    if !findingLines.isEmpty {
      lines.append("")
      lines += findingLines
    }
    return lines
  }

  private func segmentTable(_ journal: JournalExamination, style: Style, utc: Bool) -> [String] {
    // A log spool's segments have times.
    let timed = journal.segments.contains { $0.times != nil }
    var table = TextTable(
      [
        ("SEGMENT", .left), ("STATE", .left), ("SIZE", .right), ("RECORDS", .right),
        ("SEQUENCES", .left),
      ] + (timed ? [("TIMES", .left)] : []) + [("MODE", .left), ("MODIFIED", .left)])
    for segment in journal.segments {
      let paint: Style.Paint? =
        switch segment.state {
        case .damaged: .red
        case .removedAtOpen, .unread: .dim
        default: nil
        }
      let times = segment.times.map {
        Self.seconds($0.lowerBound, utc: utc) + " … " + Self.seconds($0.upperBound, utc: utc)
      }
      table.add(
        [
          TextTable.Cell(segment.file.name), TextTable.Cell(segment.state.rawValue, paint),
          TextTable.Cell(ByteCount.describe(segment.file.status.size)),
          TextTable.Cell(String(segment.records)),
          TextTable.Cell(segment.sequences.map { "\($0.lowerBound)…\($0.upperBound)" } ?? "-"),
        ] + (timed ? [TextTable.Cell(times ?? "-")] : []) + [
          TextTable.Cell(segment.file.status.permissionText),
          TextTable.Cell(Self.modified(segment.file.status, utc: utc)),
        ])
    }
    return table.render(style: style, indent: 2)
  }

  func fileTable(_ files: [StoreFile], style: Style, utc: Bool) -> [String] {
    var table = TextTable([
      ("FILE", .left), ("ROLE", .left), ("SIZE", .right), ("MODE", .left), ("MODIFIED", .left),
    ])
    for file in files {
      table.add([
        file.name, file.role.rawValue, ByteCount.describe(file.status.size),
        file.status.permissionText, Self.modified(file.status, utc: utc),
      ])
    }
    return table.render(style: style, indent: 2)
  }

  private func outboxLines(_ outbox: OutboxExamination, style: Style, utc: Bool) -> [String] {
    let bytes = outbox.pending.reduce(0) { $0 + $1.bytes }
    var lines = [
      "  " + "outbox".padding(12)
        + "\(outbox.pending.count) pending (\(Self.count(outbox.batches.count, "batch", plural: "batches"))"
        + ", \(ByteCount.describe(UInt64(bytes)))), \(outbox.parked.count) parked, "
        + "\(outbox.unreadable.count) unreadable, \(outbox.duplicatesHealed) duplicates healed"
    ]
    let shown = 20
    if !outbox.pending.isEmpty {
      var table = TextTable([
        ("PENDING", .left), ("STATE", .left), ("ATTEMPTS", .right), ("CREATED", .left),
        ("BYTES", .right), ("BATCH", .left), ("LAST ERROR", .left),
      ])
      for entry in outbox.pending.prefix(shown) {
        table.add([
          entry.key, entry.state.description, String(entry.attempts),
          Self.created(entry.createdAt, utc: utc), String(entry.bytes), entry.batchKey ?? "-",
          entry.lastError ?? "",
        ])
      }
      lines.append("")
      lines += table.render(style: style, indent: 2)
      if outbox.pending.count > shown {
        lines.append("  … and \(outbox.pending.count - shown) more (--json lists every entry)")
      }
    }
    if !outbox.parked.isEmpty {
      var table = TextTable([
        ("PARKED", .left), ("ATTEMPTS", .right), ("CREATED", .left), ("BYTES", .right),
        ("LAST ERROR", .left),
      ])
      for entry in outbox.parked {
        table.add([
          TextTable.Cell(entry.key, .yellow), TextTable.Cell(String(entry.attempts)),
          TextTable.Cell(Self.created(entry.createdAt, utc: utc)),
          TextTable.Cell(String(entry.bytes)), TextTable.Cell(entry.lastError ?? ""),
        ])
      }
      lines.append("")
      lines += table.render(style: style, indent: 2)
    }
    return lines
  }

  private func atomicFileLines(_ file: AtomicFileExamination, style: Style, utc: Bool)
    -> [String]
  {
    let read =
      switch file.readSource {
      case .current?: "the current generation"
      case .previous?:
        style("the previous generation", .yellow) + " (the current one is missing or unusable)"
      case nil: style("nothing usable", .red)
      }
    var lines = ["  " + "a read".padding(12) + "returns " + read, ""]
    var table = TextTable([
      ("GENERATION", .left), ("FILE", .left), ("SIZE", .right), ("PAYLOAD", .right),
      ("STATUS", .left), ("MODE", .left), ("MODIFIED", .left),
    ])
    for generation in file.generations {
      table.add([
        TextTable.Cell(generation.file.role.rawValue), TextTable.Cell(generation.file.name),
        TextTable.Cell(ByteCount.describe(generation.file.status.size)),
        TextTable.Cell(generation.payloadBytes.map { ByteCount.describe(UInt64($0)) } ?? "-"),
        generation.problem.map { TextTable.Cell("unusable: " + $0, .red) } ?? TextTable.Cell("ok"),
        TextTable.Cell(generation.file.status.permissionText),
        TextTable.Cell(Self.modified(generation.file.status, utc: utc)),
      ])
    }
    lines += table.render(style: style, indent: 2)
    if !file.files.isEmpty {
      lines.append("")
      lines += fileTable(file.files, style: style, utc: utc)
    }
    return lines
  }

  /// A file's modification time.
  /// A record's time to the second (nanoseconds since 1970 in).
  static func seconds(_ nanoseconds: Int64, utc: Bool) -> String {
    let (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    return TimeFormat.rfc3339(seconds: fraction < 0 ? seconds - 1 : seconds, utc: utc)
  }

  static func modified(_ status: FileStatus, utc: Bool) -> String {
    TimeFormat.rfc3339(seconds: status.modifiedSeconds, utc: utc)
  }

  /// An outbox entry's creation time (`-` when an older format did not record it).
  static func created(_ milliseconds: Int64, utc: Bool) -> String {
    milliseconds == 0 ? "-" : TimeFormat.rfc3339(milliseconds: milliseconds, utc: utc)
  }
}
