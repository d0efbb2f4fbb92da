import StoicStore
import StoicTelemetry

extension StoreExamination {
  /// A spool's part of `stoic inspect`: identity, drop counts, the log records' time range,
  /// the root's files, then each journal as `inspect` shows a journal (its findings are
  /// listed once, with the spool's).
  func spoolLines(_ spool: SpoolExamination, style: Style, utc: Bool) -> [String] {
    var lines: [String] = []
    func field(_ name: String, _ value: String) {
      lines.append("  " + name.padding(12) + value)
    }
    field("identity", spool.identity ?? style("missing or unreadable", .yellow))
    field("drops", Self.describe(spool.drops))
    if let times = spool.logTimes {
      field(
        "log times",
        LogRecordText.time(times.earliest, utc: utc) + " … "
          + LogRecordText.time(times.latest, utc: utc))
    }
    field("summaries", "\(spool.summaries) of the log's sealed segments (for stoic query)")
    if !spool.files.isEmpty {
      lines.append("")
      lines += fileTable(spool.files, style: style, utc: utc)
    }
    for (_, journal) in spool.examinedJournals {
      lines.append("")
      lines += journal.inspectionLines(style: style, utc: utc, findings: false)
    }
    return lines
  }

  /// `quota 3, age 0, disk_error 0, encoding 0 (3 in all)`, or why there are none.
  static func describe(_ drops: SpoolDropCounters.Stored?) -> String {
    switch drops {
    case .counts(let counts, let pending)?:
      let reasons = SpoolDropReason.allCases.map { "\($0) \(counts[$0])" }
      var text = reasons.joined(separator: ", ") + " (\(counts.total) in all)"
      if let pending { text += "; a removal of \(pending) records under way" }
      return text
    case .missing?, nil: return "none counted (no drops file)"
    case .newerVersion(let version)?: return "written by a newer build (version \(version))"
    case .damaged(let why)?: return "unreadable (\(why))"
    }
  }

  /// A spool's part of `stoic inspect --json`.
  func spoolJSON(_ spool: SpoolExamination, utc: Bool) -> JSONValue {
    var drops: [(String, JSONValue)] = []
    if let counts = spool.dropCounts {
      drops = SpoolDropReason.allCases.map { ($0.description, .unsigned(counts[$0])) }
      drops.append(("total", .unsigned(counts.total)))
    }
    var members: [(String, JSONValue)] = [
      ("identity", .optional(spool.identity)),
      ("drops", spool.dropCounts == nil ? .null : .object(drops)),
      ("dropsState", .string(Self.describe(spool.drops))),
      ("summaries", .int(Int64(spool.summaries))),
      (
        "logTimes",
        spool.logTimes.map { times in
          .object([
            ("earliest", .string(LogRecordText.time(times.earliest, utc: utc))),
            ("latest", .string(LogRecordText.time(times.latest, utc: utc))),
          ])
        } ?? .null
      ),
      ("files", .array(spool.files.map { Self.json($0, utc: utc) })),
    ]
    for (name, journal) in spool.examinedJournals {
      members.append((name, journal.inspectionJSON(utc: utc)))
    }
    return .object(members)
  }
}
