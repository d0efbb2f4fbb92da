import StoicStore

extension StoreExamination {
  /// The document `stoic inspect --json` prints.
  func inspectionJSON(utc: Bool) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("path", .string(location.path)), ("kind", .string(location.kind.rawValue)),
    ]
    if let lock {
      let state: String =
        switch lock {
        case .noLockFile: "none"
        case .free: "free"
        case .process, .anotherProcess: "held"
        case .unknown: "unknown"
        }
      members.append(
        (
          "lock",
          .object([
            ("state", .string(state)), ("pid", lock.pid.map { .int(Int64($0)) } ?? .null),
            ("description", .string(lock.description)),
          ])
        ))
    }
    if let journal { members.append(("journal", json(journal, utc: utc))) }
    if let outbox { members.append(("outbox", json(outbox, utc: utc))) }
    if let collector { members.append(("collector", Self.collectorJSON(collector))) }
    if let atomicFile { members.append(("atomicFile", json(atomicFile, utc: utc))) }
    if let spool { members.append(("spool", spoolJSON(spool, utc: utc))) }
    members.append(("findings", .array(findings.map(\.json))))
    members.append(("error", .optional(failure?.message)))
    return .object(members)
  }

  private func json(_ journal: JournalExamination, utc: Bool) -> JSONValue {
    .object([
      ("records", .int(Int64(journal.records))),
      ("firstSequence", .optional(journal.sequences?.lowerBound)),
      ("lastSequence", .unsigned(journal.lastSequence)),
      ("lowWaterMark", .unsigned(journal.lowWaterMark)),
      (
        "snapshot",
        journal.snapshot.map {
          .object([("sequence", .unsigned($0.sequence)), ("bytes", .int(Int64($0.bytes)))])
        } ?? .null
      ),
      ("refusal", .optional(journal.refusal)),
      (
        "segments",
        .array(
          journal.segments.map { segment in
            .object(
              [
                ("name", .string(segment.file.name)), ("first", .unsigned(segment.first)),
                ("state", .string(segment.state.rawValue)),
                ("compressed", .bool(segment.compressed)),
                ("records", .int(Int64(segment.records))),
                ("firstSequence", .optional(segment.sequences?.lowerBound)),
                ("lastSequence", .optional(segment.sequences?.upperBound)),
              ] + Self.timeMembers(segment.times, utc: utc)
                + Self.fileMembers(segment.file.status, utc: utc))
          })
      ),
      (
        "files",
        .array(journal.files.filter { $0.role != .segment }.map { Self.json($0, utc: utc) })
      ),
      ("nextOpenChanges", .array(journal.changes.map(JSONValue.string))),
    ])
  }

  private func json(_ outbox: OutboxExamination, utc: Bool) -> JSONValue {
    func entry(_ entry: OutboxExamination.Entry) -> JSONValue {
      .object([
        ("key", .string(entry.key)), ("state", .string(entry.state.description)),
        ("attempts", .int(Int64(entry.attempts))),
        (
          "created",
          entry.createdAt == 0
            ? .null : .string(TimeFormat.rfc3339(milliseconds: entry.createdAt, utc: utc))
        ),
        ("bytes", .int(Int64(entry.bytes))), ("batch", .optional(entry.batchKey)),
        ("lastError", .optional(entry.lastError)),
      ])
    }
    return .object([
      ("pending", .array(outbox.pending.map(entry))),
      ("parked", .array(outbox.parked.map(entry))),
      (
        "batches",
        .array(
          outbox.batches.map {
            .object([("key", .string($0.key)), ("entries", .int(Int64($0.entries)))])
          })
      ),
      (
        "unreadable",
        .array(
          outbox.unreadable.map {
            .object([
              ("key", .optional($0.key)), ("bytes", .int(Int64($0.byteCount))),
              ("reason", .string($0.reason)),
            ])
          })
      ),
      ("duplicatesHealed", .int(Int64(outbox.duplicatesHealed))),
    ])
  }

  private func json(_ file: AtomicFileExamination, utc: Bool) -> JSONValue {
    let read: String =
      switch file.readSource {
      case .current?: "current"
      case .previous?: "previous"
      case nil: "nothing"
      }
    return .object([
      ("readReturns", .string(read)),
      (
        "generations",
        .array(
          file.generations.map { generation in
            .object(
              [
                ("name", .string(generation.file.name)),
                ("generation", .string(generation.file.role.rawValue)),
                ("payloadBytes", generation.payloadBytes.map { .int(Int64($0)) } ?? .null),
                ("problem", .optional(generation.problem)),
              ] + Self.fileMembers(generation.file.status, utc: utc))
          })
      ),
      ("files", .array(file.files.map { Self.json($0, utc: utc) })),
    ])
  }

  static func json(_ file: StoreFile, utc: Bool) -> JSONValue {
    .object(
      [("name", .string(file.name)), ("role", .string(file.role.rawValue))]
        + fileMembers(file.status, utc: utc))
  }

  /// A log segment's `earliestTime` and `latestTime` (RFC 3339 with nanoseconds), if known.
  private static func timeMembers(_ times: ClosedRange<Int64>?, utc: Bool) -> [(String, JSONValue)]
  {
    guard let times else { return [] }
    return [
      ("earliestTime", .string(LogRecordText.time(times.lowerBound, utc: utc))),
      ("latestTime", .string(LogRecordText.time(times.upperBound, utc: utc))),
    ]
  }

  /// Size, permission bits and modification time.
  private static func fileMembers(_ status: FileStatus, utc: Bool) -> [(String, JSONValue)] {
    [
      ("bytes", .unsigned(status.size)), ("mode", .string(status.octalPermissions)),
      ("modified", .string(modified(status, utc: utc))),
    ]
  }
}
