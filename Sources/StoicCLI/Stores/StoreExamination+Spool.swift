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
    if let spanDrops = spool.spanDrops { field("span drops", Self.describe(spanDrops)) }
    if let times = spool.logTimes {
      field(
        "log times",
        LogRecordText.time(times.earliest, utc: utc) + " … "
          + LogRecordText.time(times.latest, utc: utc))
    }
    if let spans = spool.spanCounts {
      var text = "\(spans.ended) ended, \(spans.open) open"
      if spans.open > 0 {
        text += " (running, or cut short: the next open ends them as unfinished)"
      }
      if spans.unreadable > 0 { text += ", \(spans.unreadable) records unreadable" }
      field("spans", text)
    }
    field("summaries", "\(spool.summaries) of the log's sealed segments (for stoic query)")
    if let live = spool.liveMetrics {
      let source =
        spool.liveMetricsRebuilt.map { "rebuilt from the last synced samples: \($0)" }
        ?? "this boot's live files"
      field("metrics", "\(live.count) series now (\(TerminalText.escaped(source)))")
      for sample in live.prefix(Self.liveMetricsShown) {
        lines.append("    " + TerminalText.escaped(Self.describe(sample)))
      }
      if live.count > Self.liveMetricsShown {
        lines.append("    … \(live.count - Self.liveMetricsShown) more (--json lists them all)")
      }
    }
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

  /// How many live series the table lists.
  static let liveMetricsShown = 20

  /// `name{key=value,…} kind value`: a histogram by its count and sum.
  static func describe(_ sample: MetricSample) -> String {
    let dimensions =
      sample.dimensions.isEmpty
      ? "" : "{" + sample.dimensions.map(\.description).joined(separator: ",") + "}"
    return "\(sample.name)\(dimensions) \(sample.kind) " + value(sample.value)
  }

  /// A sample's value as text: the number, or a histogram's `count=N sum=S`.
  static func value(_ value: MetricSample.Value) -> String {
    switch value {
    case .integer(let number): "\(number)"
    case .double(let number): "\(number)"
    case .histogram(let histogram): "count=\(histogram.count) sum=\(histogram.sum)"
    }
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
      ("spanDropsState", spool.spanDrops.map { .string(Self.describe($0)) } ?? .null),
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
      (
        "spanCounts",
        spool.spanCounts.map { counts in
          .object([
            ("ended", .int(Int64(counts.ended))), ("open", .int(Int64(counts.open))),
            ("unreadable", .int(Int64(counts.unreadable))),
          ])
        } ?? .null
      ),
      ("files", .array(spool.files.map { Self.json($0, utc: utc) })),
      (
        "liveMetrics",
        spool.liveMetrics.map { live in
          .object([
            ("rebuilt", .optional(spool.liveMetricsRebuilt)),
            (
              "series",
              .array(
                live.map { sample in
                  .object([
                    ("name", .string(sample.name)),
                    (
                      "dimensions",
                      .object(sample.dimensions.map { ($0.key, JSONValue.string($0.value)) })
                    ),
                    ("kind", .string(sample.kind.description)),
                    ("value", .string(Self.value(sample.value))),
                  ])
                })
            ),
          ])
        } ?? .null
      ),
    ]
    for (name, journal) in spool.examinedJournals {
      members.append((name, journal.inspectionJSON(utc: utc)))
    }
    return .object(members)
  }
}
