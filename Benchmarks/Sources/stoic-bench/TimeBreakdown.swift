/// Where the wall time of one run of the journal went, from a ``FileSystemProfile``: printed
/// under a figure to explain it.
struct TimeBreakdown {
  let wallSeconds: Double
  let records: Int
  let totals: FileSystemProfile.Totals

  private static let labels: [(FileSystemProfile.Kind, String)] = [
    (.write, "pwrite"), (.sync, "fsync"), (.directorySync, "directory fsync"),
    (.other, "other file calls"),
  ]

  /// One line: the share of each kind of call, with its count, and the rest (the journal's own
  /// code, locks and waits).
  func line() -> String {
    var parts: [String] = []
    var accounted = 0.0
    for (kind, label) in Self.labels {
      let seconds = totals.seconds[kind] ?? 0
      let calls = totals.calls[kind] ?? 0
      guard calls > 0 else { continue }
      accounted += seconds
      parts.append("\(label) \(percent(seconds)) (\(Format.count(calls)) calls)")
    }
    parts.append("journal code, locks and waits \(percent(wallSeconds - accounted))")
    if let calls = totals.calls[.compression], calls > 0 {
      // The journal compresses on a background thread: this window overlaps the appends and
      // is not part of the sum above (the file calls above include the background thread's
      // renames, removals and directory syncs after each window).
      let seconds = totals.seconds[.compression] ?? 0
      parts.append(
        "plus background zstd compression windows \(percent(seconds)) of the wall time "
          + "(\(Format.count(calls)) segments, overlapping)")
    }
    return "where one profiled run's time went: " + parts.joined(separator: ", ")
  }

  /// Records covered by each segment sync, and the mean sync time.
  func syncLine() -> String {
    let syncs = totals.calls[.sync] ?? 0
    let seconds = totals.seconds[.sync] ?? 0
    guard syncs > 0 else { return "no segment sync in the profiled run" }
    return "profiled run: \(syncs) segment fsyncs for \(records) records "
      + "(\(Format.number(Double(records) / Double(syncs))) records per fsync), "
      + "mean fsync \(Format.number(seconds / Double(syncs) * 1e6)) µs"
  }

  private func percent(_ seconds: Double) -> String {
    Format.number(100 * seconds / wallSeconds) + " %"
  }
}
