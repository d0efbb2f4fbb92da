import Foundation
import StoicForwarding

/// End-to-end forwarding into the example collector on 127.0.0.1 (both in this process, on 2
/// shared cores): records per second for protobuf and JSON, with gzip, zstd or neither, and
/// spans per second for protobuf with gzip; the disk
/// bytes written per forwarded record against its spooled size; and the drain rate of a
/// backlog in MB/s of spooled data (32 MiB by default, 1 GiB with `--large`). With each figure,
/// the CPU time (sender and collector together) per forwarded record.
///
/// `STOIC_BENCH_FORWARDING=NAME` runs one encoding's figure only (`protobuf+gzip`, …), or
/// `backlog` only the backlog's: for a profiler.
struct ForwardingScenario: Scenario {
  let id = "forwarding"

  static let encodings: [(name: String, run: ForwardingRun)] = [
    ("protobuf+gzip", ForwardingRun(encoding: .protobuf, compression: .gzip)),
    ("protobuf", ForwardingRun(encoding: .protobuf, compression: .none)),
    ("json+gzip", ForwardingRun(encoding: .json, compression: .gzip)),
    ("json", ForwardingRun(encoding: .json, compression: .none)),
    ("protobuf+zstd", ForwardingRun(encoding: .protobuf, compression: .zstd)),
    ("json+zstd", ForwardingRun(encoding: .json, compression: .zstd)),
    (
      "protobuf+gzip-10k",
      ForwardingRun(encoding: .protobuf, compression: .gzip, maxRecords: 10_000)
    ),
    (
      "sender-only",
      ForwardingRun(encoding: .protobuf, compression: .gzip, toCollector: false)
    ),
    (
      "sender-only+zstd",
      ForwardingRun(encoding: .protobuf, compression: .zstd, toCollector: false)
    ),
    (
      "spans-protobuf+gzip",
      ForwardingRun(encoding: .protobuf, compression: .gzip, signal: .spans)
    ),
  ]

  func run(in context: BenchContext) throws -> [BenchResult] {
    let records = context.quick ? 20_000 : 50_000
    var throughput: [String: [Double]] = [:]
    var writeCost: [Double] = []
    var forwardingOnly: [Double] = []
    var spooledPerRecord: [Double] = []
    var cpuPerRecord: [String: [Double]] = [:]
    let only = ProcessInfo.processInfo.environment["STOIC_BENCH_FORWARDING"]
    // Three runs of the ten encodings at most: the figure is a rate over 50,000 records each.
    let runs = min(context.runs, 3)
    for run in 1...runs where only != "backlog" {
      for (name, encoding) in Self.encodings where only == nil || only == name {
        context.progress("forwarding \(name) run \(run)/\(runs)")
        let sample = try context.inFreshDirectory(id) { directory in
          try encoding.measure(in: directory, records: records)
        }
        throughput[name, default: []].append(sample.recordsPerSecond)
        cpuPerRecord[name, default: []].append(sample.cpuMicrosecondsPerRecord)
        if name == "protobuf+gzip" {
          writeCost.append(sample.writeCost)
          forwardingOnly.append(sample.forwardingBytesPerRecord)
          spooledPerRecord.append(sample.spooledBytesPerRecord)
        }
      }
    }
    let backlogBytes: UInt64 = context.large ? 1 << 30 : 32 << 20
    context.progress("forwarding: draining a backlog of \(Format.bytes(Int(backlogBytes)))")
    let backlog = try context.inFreshDirectory(id) { directory in
      try Self.encodings[0].run.measure(in: directory, records: 0, bytes: backlogBytes)
    }
    return results(
      records: records, throughput: throughput, cpuPerRecord: cpuPerRecord, writeCost: writeCost,
      bytesPerRecord: (Summary(forwardingOnly).median, Summary(spooledPerRecord).median),
      backlog: backlog, backlogBytes: backlogBytes)
  }

  private func results(
    records: Int, throughput: [String: [Double]], cpuPerRecord: [String: [Double]],
    writeCost: [Double],
    bytesPerRecord: (forwarding: Double, spooled: Double), backlog: ForwardingRun.Sample,
    backlogBytes: UInt64
  ) -> [BenchResult] {
    var rate = BenchResult(
      scenario: id, metric: "throughput", unit: "records/s",
      title: "\(records) spooled log records forwarded end to end (one drain, batches of 1,000) "
        + "into the example collector on 127.0.0.1, in-process; stoic = protobuf+gzip, peers = "
        + "the other encodings, batches of 10,000, the sender alone, gzip and zstd (every request "
        + "answered 200 without a network or a collector), and spans (a server span with 3 "
        + "attributes, its start and end records forwarded as one OTLP span; spans/s)",
      stoic: Summary(throughput["protobuf+gzip"] ?? []))
    rate.peers = Self.encodings.dropFirst().map {
      .init(name: $0.name, summary: Summary(throughput[$0.name] ?? []))
    }
    rate.notes = [
      "CPU per record (sender and collector, all threads, median µs): "
        + Self.encodings.map {
          "\($0.name) \(Format.number(Summary(cpuPerRecord[$0.name] ?? []).median))"
        }.joined(separator: ", ")
    ]
    rate.targets = [
      TargetCheck(
        label: "protobuf+gzip ≥ 400,000 records/s", value: rate.stoic.median,
        threshold: 400_000, comparison: .atLeast, unit: " records/s"),
      TargetCheck(
        label: "json+gzip ≥ 250,000 records/s",
        value: Summary(throughput["json+gzip"] ?? []).median, threshold: 250_000,
        comparison: .atLeast, unit: " records/s"),
    ]
    var cost = BenchResult(
      scenario: id, metric: "write-cost", unit: "×",
      title: "disk bytes per forwarded record (its \(ForwardingRun.recordBytes)-byte encoding + "
        + "what forwarding wrote for it: outbox entries, spool checkpoints) ÷ its encoding, "
        + "protobuf+gzip",
      stoic: Summary(writeCost))
    cost.targets = [
      TargetCheck(
        label: "write cost ≤ 1.2× spooled size", value: cost.stoic.median, threshold: 1.2,
        comparison: .atMost, unit: "×")
    ]
    cost.notes = [
      "forwarding wrote \(Format.number(bytesPerRecord.forwarding)) B per record; spooling "
        + "wrote \(Format.number(bytesPerRecord.spooled)) B per record (frames, sync markers, "
        + "compressed copies of sealed segments)"
    ]
    var drain = BenchResult(
      scenario: id, metric: "backlog-drain", unit: "MB/s",
      title: "drain of a \(Format.bytes(Int(backlogBytes))) backlog (\(backlog.records) records, "
        + "protobuf+gzip), MB/s of spooled records (encoded size); 1 GiB with --large",
      stoic: Summary([backlog.megabytesPerSecond]))
    drain.targets = [
      TargetCheck(
        label: "backlog drained at ≥ 50 MB/s", value: drain.stoic.median, threshold: 50,
        comparison: .atLeast, unit: " MB/s")
    ]
    drain.notes = [
      "\(backlog.records) records in \(Format.number(backlog.seconds)) s = "
        + "\(Format.number(backlog.recordsPerSecond)) records/s; CPU "
        + "\(Format.number(backlog.cpuSeconds)) s = "
        + "\(Format.number(backlog.cpuMicrosecondsPerRecord)) µs per record (sender and "
        + "collector, all threads)"
    ]
    return [rate, cost, drain]
  }
}
