import BenchKit
import StoicStore
import StoicTelemetry

/// `--large` only (or `--scenario scale`): a spool of 10 GiB beside one of 1 GiB, the same
/// records (``QuerySpool``: two days, the spool's 8 MiB segments, sealed ones compressed), for
/// three figures, each at both sizes: `TelemetrySpool.open` of the spool, the selective query of
/// the `query` scenario (`--level error`, one hour of the two days, summaries built by a first
/// run), and the drain of a backlog of the same size through the forwarder into the example
/// collector (protobuf+gzip, as `forwarding`'s backlog). `--quick` makes them 32 and 320 MiB.
///
/// Open and the query must not grow with the spool beyond the segments they read (an open reads
/// the active segment; the query the segments of its hour, ten times as many at ten times the
/// size), and the drain's rate must stay within 20 % of the smaller backlog's.
struct ScaleScenario: Scenario {
  let id = "scale"

  func run(in context: BenchContext) throws -> [BenchResult] {
    let sizes = context.quick ? [32 << 20, 320 << 20] : [1 << 30, 10 << 30]
    var opens: [Int: [Double]] = [:]
    var queries: [Int: (seconds: [Double], segmentsRead: Int)] = [:]
    var drains: [Int: ForwardingRun.Sample] = [:]
    let runs = min(context.runs, 3)
    for bytes in sizes {
      let directory = try context.makeDirectory(id)
      defer { context.remove(directory) }
      context.progress("scale: writing a spool of \(Format.bytes(bytes))")
      let spool = try QuerySpool.make(
        at: directory + "/spool", bytes: bytes, segmentSize: 8 << 20)
      let query = LogQuery(
        minimumLevel: .error, since: QuerySpool.start + 24 * QuerySpool.hour,
        until: QuerySpool.start + 25 * QuerySpool.hour)
      let summaries = SegmentSummaryStore(
        directory: SegmentSummaryStore.directory(ofSpool: spool.root))
      _ = try query.run(spoolAt: spool.root, summaries: summaries) { _ in true }
      var seconds: [Double] = []
      var segmentsRead = 0
      for run in 1...runs {
        context.progress("scale \(Format.bytes(bytes)) run \(run)/\(runs): open, query")
        let start = MonotonicClock.now()
        // Its byte limit above the spool's size: the open must not start dropping the oldest.
        let opened = try TelemetrySpool.open(
          at: spool.root,
          options: TelemetryOptions(logs: LogSpoolOptions(byteLimit: UInt64(bytes) * 2)))
        opens[bytes, default: []].append(MonotonicClock.seconds(since: start) * 1_000)
        try opened.close()
        let queryStart = MonotonicClock.now()
        let statistics = try query.run(spoolAt: spool.root, summaries: summaries) { _ in true }
        seconds.append(MonotonicClock.seconds(since: queryStart))
        segmentsRead = statistics.segments - statistics.segmentsSkipped
      }
      queries[bytes] = (seconds, segmentsRead)
      context.remove(directory + "/spool")
      context.progress("scale: draining a backlog of \(Format.bytes(bytes))")
      drains[bytes] = try context.inFreshDirectory(id + "-drain") { drainDirectory in
        try ForwardingScenario.encodings[0].run.measure(
          in: drainDirectory, records: 0, bytes: UInt64(bytes))
      }
    }
    return results(sizes: sizes, opens: opens, queries: queries, drains: drains)
  }

  private func results(
    sizes: [Int], opens: [Int: [Double]],
    queries: [Int: (seconds: [Double], segmentsRead: Int)], drains: [Int: ForwardingRun.Sample]
  ) -> [BenchResult] {
    let small = sizes[0]
    let large = sizes[1]
    let smallName = Format.bytes(small)
    let setUp =
      "stoic = a spool of \(Format.bytes(large)), peer = one of \(smallName), the same records "
      + "over two days in 8 MiB segments"
    var open = BenchResult(
      scenario: id, metric: "open", unit: "ms",
      title: "TelemetrySpool.open of a closed spool, " + setUp,
      stoic: Summary(opens[large] ?? []))
    open.peers = [.init(name: smallName, summary: Summary(opens[small] ?? []))]
    open.targets = [
      TargetCheck(
        label: "open at \(Format.bytes(large)) ≤ 1.5× open at \(smallName)",
        value: open.stoic.median / (open.peerMedian(smallName) ?? .nan), threshold: 1.5,
        comparison: .atMost, unit: "×")
    ]
    let largeQuery = Summary(queries[large]?.seconds ?? [])
    let smallQuery = Summary(queries[small]?.seconds ?? [])
    let largeRead = Double(queries[large]?.segmentsRead ?? 0)
    let smallRead = Double(queries[small]?.segmentsRead ?? 0)
    var query = BenchResult(
      scenario: id, metric: "query", unit: "s",
      title: "--level error, one hour of the two days, summaries built by a first run, "
        + setUp,
      stoic: largeQuery)
    query.peers = [.init(name: smallName, summary: smallQuery)]
    query.notes = [
      "segments read: \(Int(largeRead)) at \(Format.bytes(large)), \(Int(smallRead)) at "
        + smallName
    ]
    let perSegment = (largeQuery.median / largeRead) / (smallQuery.median / smallRead)
    query.targets = [
      TargetCheck(
        label: "query time per segment read at \(Format.bytes(large)) ≤ 1.2× at \(smallName)",
        value: perSegment, threshold: 1.2, comparison: .atMost, unit: "×")
    ]
    var drain = BenchResult(
      scenario: id, metric: "drain", unit: "MB/s",
      title: "drain of a backlog through the forwarder into the example collector on "
        + "127.0.0.1 (protobuf+gzip), MB/s of spooled records; stoic = \(Format.bytes(large)), "
        + "peer = \(smallName)",
      stoic: Summary([drains[large]?.megabytesPerSecond ?? .nan]))
    drain.peers = [
      .init(name: smallName, summary: Summary([drains[small]?.megabytesPerSecond ?? .nan]))
    ]
    drain.notes = sizes.map { bytes in
      let sample = drains[bytes]
      return "\(Format.bytes(bytes)): \(sample?.records ?? 0) records in "
        + "\(Format.number(sample?.seconds ?? .nan)) s"
    }
    drain.targets = [
      TargetCheck(
        label: "drain rate at \(Format.bytes(large)) ≥ 0.8× at \(smallName)",
        value: drain.stoic.median / (drain.peerMedian(smallName) ?? .nan), threshold: 0.8,
        comparison: .atLeast, unit: "×")
    ]
    return [open, query, drain]
  }
}
